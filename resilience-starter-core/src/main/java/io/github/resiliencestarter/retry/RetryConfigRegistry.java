package io.github.resiliencestarter.retry;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Default and named {@link RetryConfig}s, and one {@link RetryBudget} per name: retries of the
 * same instance share a budget, so a storm against one dependency is capped as a whole.
 */
public final class RetryConfigRegistry {

    private final RetryConfig defaults;

    private final Map<String, RetryConfig> instances;

    private final Function<String, RetryBudget> budgetFactory;

    private final ConcurrentHashMap<String, RetryBudget> budgets = new ConcurrentHashMap<>();

    private RetryConfigRegistry(RetryConfig defaults, Map<String, RetryConfig> instances,
            Function<String, RetryBudget> budgetFactory) {
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.instances = Map.copyOf(instances);
        this.budgetFactory = Objects.requireNonNull(budgetFactory, "budgetFactory");
    }

    /**
     * Creates a registry.
     *
     * @param defaults the settings of unnamed and unknown instances
     * @param instances settings per instance name
     * @param budgetFactory makes the budget of a name on first use
     * @return the registry
     */
    public static RetryConfigRegistry of(RetryConfig defaults, Map<String, RetryConfig> instances,
            Function<String, RetryBudget> budgetFactory) {
        return new RetryConfigRegistry(defaults, instances, budgetFactory);
    }

    /**
     * A registry with the engine defaults and unlimited budgets.
     *
     * @return the registry
     */
    public static RetryConfigRegistry ofDefaults() {
        return new RetryConfigRegistry(RetryConfig.ofDefaults(), Map.of(), name -> RetryBudget.UNLIMITED);
    }

    /**
     * The settings of {@code name}, or the defaults when no such instance is configured.
     *
     * @param name an instance name, possibly empty or {@code null}
     * @return the settings
     */
    public RetryConfig config(@Nullable String name) {
        if (name == null || name.isEmpty()) {
            return defaults;
        }
        return instances.getOrDefault(name, defaults);
    }

    /**
     * The budget shared by everything retried under {@code name}.
     *
     * @param name the budget's name
     * @return the budget
     */
    public RetryBudget budget(String name) {
        return budgets.computeIfAbsent(name, budgetFactory);
    }

    /**
     * The budgets created so far, by name, for the actuator endpoint.
     *
     * @return a snapshot of the budgets
     */
    public Map<String, RetryBudget> budgets() {
        return Map.copyOf(budgets);
    }

    /**
     * The configured instance names.
     *
     * @return the names
     */
    public Set<String> names() {
        return instances.keySet();
    }
}
