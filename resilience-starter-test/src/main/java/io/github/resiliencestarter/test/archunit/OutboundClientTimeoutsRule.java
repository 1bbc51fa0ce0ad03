package io.github.resiliencestarter.test.archunit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * An outbound HTTP client bean ({@code RestTemplate}, {@code RestClient}, {@code WebClient}) is
 * built with a connect timeout and a read timeout (rules T-4, T-P4): the starter's deadline bounds
 * a call only inside a request that has one, and a scheduled job or a message listener has none.
 * Read from the bean method's code (its lambdas included) and the code of its own class it calls:
 * a call whose name sets a connect timeout ({@code connectTimeout}, {@code setConnectTimeout},
 * {@code withConnectTimeout}, Netty's {@code CONNECT_TIMEOUT_MILLIS}) and one that sets a read
 * timeout ({@code readTimeout}, {@code setReadTimeout}, {@code responseTimeout},
 * {@code setSocketTimeout}), or {@code withTimeouts} for both.
 */
final class OutboundClientTimeoutsRule {

    static final Set<String> CLIENT_TYPES = Set.of("org.springframework.web.client.RestTemplate",
            "org.springframework.web.client.RestClient",
            "org.springframework.web.reactive.function.client.WebClient");

    private static final String BEAN = "org.springframework.context.annotation.Bean";

    private OutboundClientTimeoutsRule() {
    }

    static ArchRule rule() {
        return methods().that(clientBeans()).should(new ArchCondition<JavaMethod>(
                "set a connect timeout and a read timeout") {
            @Override
            public void check(JavaMethod bean, ConditionEvents events) {
                Found found = scan(bean);
                if (found.connect && found.read) {
                    return;
                }
                String missing = !found.connect && !found.read ? "with neither a connect timeout nor a read timeout"
                        : !found.connect ? "without a connect timeout" : "without a read timeout";
                events.add(SimpleConditionEvent.violated(bean, bean.getOwner().getName() + "." + bean.getName()
                        + "() builds a " + bean.getRawReturnType().getSimpleName() + " bean " + missing
                        + ": outside a request's deadline (a scheduled job, a listener) a stalled peer holds the "
                        + "thread as long as the operating system lets it (rules T-4, T-P4). Set both on its "
                        + "request factory or connector, e.g. ClientHttpRequestFactorySettings.defaults()"
                        + ".withTimeouts(connect, read) " + bean.getSourceCodeLocation()));
            }
        }).allowEmptyShould(true).because("every outbound wait needs a bound of its own (rules T-4, T-P4)");
    }

    private static DescribedPredicate<JavaMethod> clientBeans() {
        return DescribedPredicate.describe("are @Bean methods returning an HTTP client",
                method -> (method.isAnnotatedWith(BEAN) || method.isMetaAnnotatedWith(BEAN))
                        && CLIENT_TYPES.contains(method.getRawReturnType().getName()));
    }

    /**
     * What the bean method and the code of its class it reaches set (ArchUnit counts a lambda's
     * calls as calls of the method it is written in).
     */
    private static Found scan(JavaMethod bean) {
        Found found = new Found();
        Deque<JavaCodeUnit> pending = new ArrayDeque<>();
        Set<JavaCodeUnit> seen = new HashSet<>();
        pending.add(bean);
        while (!pending.isEmpty()) {
            JavaCodeUnit unit = pending.poll();
            if (!seen.add(unit)) {
                continue;
            }
            unit.getMethodCallsFromSelf().forEach(call -> {
                found.see(call.getName());
                if (call.getTargetOwner().equals(bean.getOwner())) {
                    call.getTarget().resolveMember().ifPresent(pending::add);
                }
            });
            unit.getFieldAccesses().forEach(access -> {
                if (access.getName().equals("CONNECT_TIMEOUT_MILLIS")) {
                    found.connect = true;
                }
            });
        }
        return found;
    }

    private static final class Found {

        boolean connect;

        boolean read;

        void see(String called) {
            String name = called.toLowerCase(Locale.ROOT);
            if (name.equals("withtimeouts")) {
                connect = true;
                read = true;
            }
            if (name.contains("connecttimeout")) {
                connect = true;
            }
            if (name.contains("readtimeout") || name.contains("responsetimeout") || name.contains("sockettimeout")) {
                read = true;
            }
        }
    }
}
