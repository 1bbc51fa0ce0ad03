package io.github.resiliencestarter.autoconfigure;

import io.github.resiliencestarter.core.StartupRefusedException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * Properties renamed before 1.0. A configuration that still sets an old name would otherwise be
 * ignored in silence (and a share written as 0.1 would now mean 0.1 %), so the start is refused,
 * naming the new property. Any form of the name counts: {@code instances.orders.x},
 * {@code instances[orders].x}, an environment variable.
 */
public final class RenamedProperties {

    /**
     * One rename.
     *
     * @param from the old name ({@code *} for an instance name)
     * @param to the new name
     * @param change what else changed
     */
    public record Rename(String from, String to, String change) {

        /** The old name in canonical form; an instance name may be {@code .name} or {@code [name]}. */
        private Pattern toPattern() {
            String instance = "(?:\\.[^.\\[\\]]+|\\[[^\\]]+\\])";
            List<String> parts = new ArrayList<>();
            for (String part : from.replace(".*.", "*.").split("\\*", -1)) {
                parts.add(Pattern.quote(part));
            }
            return Pattern.compile(String.join(instance, parts));
        }
    }

    private static final List<Rename> RENAMES = List.of(
            new Rename("resilience.problem-details.enabled", "resilience.problems.enabled",
                    "one prefix for every setting of the problem responses"),
            new Rename("resilience.retry.budget.ratio", "resilience.retry.budget.percent",
                    "a percentage now, as every share: 0.1 becomes 10"),
            new Rename("resilience.circuit-breaker.warm-up-start", "resilience.circuit-breaker.warm-up-start-percent",
                    "a percentage now, as every share: 0.1 becomes 10"),
            new Rename("resilience.circuit-breaker.instances.*.warm-up-start",
                    "resilience.circuit-breaker.instances.<name>.warm-up-start-percent",
                    "a percentage now, as every share: 0.1 becomes 10"));

    /** The renames' old names as patterns, compiled once, in the order of {@link #RENAMES}. */
    private static final List<Pattern> PATTERNS = RENAMES.stream().map(Rename::toPattern).toList();

    private RenamedProperties() {
    }

    /**
     * Every rename, newest last; the configuration metadata marks each old name as an error with
     * its replacement, so an IDE flags it too.
     *
     * @return the renames
     */
    public static List<Rename> all() {
        return RENAMES;
    }

    /**
     * Refuses the start when the environment sets a renamed property under its old name.
     *
     * @param environment the application's environment
     * @throws StartupRefusedException naming each old property set and its new name
     */
    public static void check(Environment environment) {
        List<String> found = new ArrayList<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource names)) {
                continue;
            }
            // only names under resilience. can be old ones: the rest of the environment is not matched
            names.stream().map(Object::toString).filter(name -> name.startsWith("resilience.")).forEach(name -> {
                for (int i = 0; i < RENAMES.size(); i++) {
                    if (PATTERNS.get(i).matcher(name).matches()) {
                        Rename rename = RENAMES.get(i);
                        found.add(name + " is now " + rename.to() + " (" + rename.change() + ")");
                    }
                }
            });
        }
        if (!found.isEmpty()) {
            throw new StartupRefusedException("Renamed properties are still set under their old names: "
                    + String.join("; ", found) + ".", "Rename them in the application's configuration "
                    + "(docs/configuration.md lists every property).");
        }
    }
}
