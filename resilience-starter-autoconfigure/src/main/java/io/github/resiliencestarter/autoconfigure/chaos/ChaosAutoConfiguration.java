package io.github.resiliencestarter.autoconfigure.chaos;

import io.github.resiliencestarter.autoconfigure.ConditionalOnResilienceEnabled;
import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.autoconfigure.SecuredApplication;
import io.github.resiliencestarter.chaos.ChaosObserver;
import io.github.resiliencestarter.chaos.FaultInjector;
import io.github.resiliencestarter.core.StartupRefusedException;
import io.github.resiliencestarter.spring.chaos.ChaosAdvisor;
import io.github.resiliencestarter.spring.chaos.ChaosClientInterceptor;
import io.github.resiliencestarter.spring.chaos.ChaosHeader;
import java.util.Arrays;
import java.util.List;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * Fault injection for rehearsals, only with {@code resilience.chaos.enabled=true}: the injector
 * of the configured faults, an advisor in front of the methods they name, and an interceptor for
 * outbound requests (added to Boot's {@code RestClient} and {@code RestTemplate} builders by the
 * HTTP client configuration of each Boot line). The start fails in a refused profile
 * ({@code prod} by default) unless {@code allow-in-refused-profiles} says otherwise.
 */
@AutoConfiguration(after = ResilienceAutoConfiguration.class)
@ConditionalOnResilienceEnabled
@ConditionalOnBooleanProperty(name = "resilience.chaos.enabled")
@EnableConfigurationProperties(ChaosProperties.class)
public class ChaosAutoConfiguration {

    /**
     * The injector of the configured faults.
     *
     * @param properties the faults and the header settings
     * @param environment its active profiles are checked against the refused ones
     * @param beans asked whether a security filter chain authenticates callers
     * @param observers hear every injection (metrics)
     * @return the injector
     * @throws StartupRefusedException in a refused profile without the explicit allowance
     */
    @Bean
    @ConditionalOnMissingBean
    public FaultInjector chaosFaultInjector(ChaosProperties properties, Environment environment,
            ListableBeanFactory beans, ObjectProvider<ChaosObserver> observers) {
        List<String> refused = Arrays.stream(environment.getActiveProfiles())
                .filter(properties.getRefusedProfiles()::contains).toList();
        if (!refused.isEmpty() && !properties.isAllowInRefusedProfiles()) {
            throw new StartupRefusedException("resilience.chaos.enabled=true in profile " + refused
                    + ", which resilience.chaos.refused-profiles names: fault injection is refused there.",
                    "Switch it off in that profile (resilience.chaos.enabled=false), or set "
                    + "resilience.chaos.allow-in-refused-profiles=true for a deliberate rehearsal.");
        }
        // looked up per injection (rare): the observers are often built from beans that are not yet there
        ChaosObserver observer = (fault, kind) -> observers.orderedStream().forEach(each -> each.onInjected(fault,
                kind));
        return new FaultInjector(properties.toFaults(), new ChaosHeader(properties.getHeader().getName(),
                properties.getHeader().getAllowedCallers(), SecuredApplication.hasSecurityFilterChain(beans)),
                observer);
    }

    /**
     * Puts the injector in front of the methods faults name, inside every policy of the starter.
     *
     * @param environment where the faults' methods are read from, before any bean exists
     * @param injector the injector, looked up on first use
     * @return the advisor
     */
    @Bean
    @ConditionalOnMissingBean(name = "chaosAdvisor")
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static ChaosAdvisor chaosAdvisor(Environment environment, ObjectProvider<FaultInjector> injector) {
        // bound here, not injected: an advisor is made before the beans it would otherwise pull in early
        ChaosProperties properties = Binder.get(environment).bind(ChaosProperties.PREFIX, ChaosProperties.class)
                .orElseGet(ChaosProperties::new);
        return new ChaosAdvisor(properties.methodTargets(), injector::getObject);
    }

    /** Outbound requests, when Spring's HTTP client interfaces are on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.http.client.ClientHttpRequestInterceptor")
    static class Outbound {

        /**
         * Injects faults into outbound requests.
         *
         * @param injector the injector
         * @return the interceptor
         */
        @Bean
        @ConditionalOnMissingBean
        ChaosClientInterceptor chaosClientInterceptor(FaultInjector injector) {
            return new ChaosClientInterceptor(injector);
        }
    }
}
