package io.github.resiliencestarter.spring.idempotent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.context.TraceContext;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.context.TraceScope;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;

/** The caller a request resolved scopes its keys on every thread, whatever a pool thread inherited. */
class PrincipalScopeResolverTest {

    private final PrincipalScopeResolver resolver = new PrincipalScopeResolver(true);

    @AfterEach
    void restore() {
        SecurityContextHolder.clearContext();
        SecurityContextHolder.setStrategyName(SecurityContextHolder.MODE_THREADLOCAL);
    }

    private static void authenticate(String name) {
        SecurityContextHolder.getContext().setAuthentication(
                UsernamePasswordAuthenticationToken.authenticated(name, "n/a", List.of()));
    }

    @Test
    void aPoolThreadsInheritedPrincipalNeverWinsOverTheCallerTheTaskCarries() throws Exception {
        SecurityContextHolder.setStrategyName(SecurityContextHolder.MODE_INHERITABLETHREADLOCAL);
        authenticate("alice");
        // the pool's thread is created during alice's request and inherits her security context for good
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            pool.submit(() -> { }).get(5, TimeUnit.SECONDS);
            SecurityContextHolder.clearContext();
            // later, bob's request hands the pool a task, its context carrying bob as the caller
            TraceContext bobs = TraceContext.empty().withCallerScope("bob");
            String scope = pool.submit(() -> {
                try (TraceScope carried = TraceContextHolder.open(bobs)) {
                    return resolver.currentScope();
                }
            }).get(5, TimeUnit.SECONDS);
            assertThat(scope).isEqualTo("bob");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void withoutACarriedCallerTheThreadsAuthenticationScopes() {
        authenticate("carol");
        assertThat(resolver.currentScope()).isEqualTo("carol");
    }

    @Test
    void anAnonymousCarriedCallerYieldsToAnAuthenticationTheThreadKnows() {
        // the scope filter ran before the application's own authentication, which then set dave
        authenticate("dave");
        try (TraceScope carried = TraceContextHolder.open(TraceContext.empty().withCallerScope(""))) {
            assertThat(resolver.currentScope()).isEqualTo("dave");
        }
        SecurityContextHolder.clearContext();
        try (TraceScope carried = TraceContextHolder.open(TraceContext.empty().withCallerScope(""))) {
            assertThat(resolver.currentScope()).as("resolved as anonymous, not refused").isEmpty();
        }
    }
}
