package io.github.resiliencestarter.spring.web;

import io.github.resiliencestarter.core.ContextPropagator;
import org.springframework.context.i18n.LocaleContext;
import org.springframework.context.i18n.LocaleContextHolder;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * Carries Spring's request attributes and locale to timeout workers, so code that reads
 * {@code RequestContextHolder} behaves the same on the worker as on the request thread.
 */
public class RequestContextPropagator implements ContextPropagator {

    @Override
    public Restorer capture() {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        LocaleContext locale = LocaleContextHolder.getLocaleContext();
        if (attributes == null && locale == null) {
            return Restorer.NOTHING;
        }
        return () -> {
            RequestAttributes previousAttributes = RequestContextHolder.getRequestAttributes();
            LocaleContext previousLocale = LocaleContextHolder.getLocaleContext();
            RequestContextHolder.setRequestAttributes(attributes);
            LocaleContextHolder.setLocaleContext(locale);
            return () -> {
                RequestContextHolder.setRequestAttributes(previousAttributes);
                LocaleContextHolder.setLocaleContext(previousLocale);
            };
        };
    }
}
