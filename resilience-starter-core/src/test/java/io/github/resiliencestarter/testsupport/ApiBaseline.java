package io.github.resiliencestarter.testsupport;

import static org.assertj.core.api.Assertions.fail;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The public API of a published module, written down and compared with the baseline kept next to
 * its tests: a change of what users compile against (a public or protected type, constructor,
 * method or field outside the {@code internal} packages) fails the build until the baseline is
 * updated in the same change ({@code -Dapi.baseline.update=true}), so every API change is seen in
 * review. Read from the bytecode, as a compatibility checker reads it: erased types, no generics.
 * Once 1.0 is released, a comparison with the released jar takes over (docs/versioning.md).
 */
public final class ApiBaseline {

    /** Writes the baseline instead of comparing with it. */
    public static final String UPDATE_PROPERTY = "api.baseline.update";

    private static final List<JavaModifier> SHOWN = List.of(JavaModifier.PUBLIC, JavaModifier.PROTECTED,
            JavaModifier.STATIC, JavaModifier.ABSTRACT, JavaModifier.FINAL);

    private ApiBaseline() {
    }

    /**
     * Compares the module's compiled classes ({@code target/classes}) with its baseline.
     *
     * @param module the module's artifact id, which names the baseline ({@code src/test/api/<module>.api})
     * @throws IOException when a file cannot be read or written
     */
    public static void check(String module) throws IOException {
        JavaClasses classes = new ClassFileImporter().importPath(Path.of("target", "classes"));
        String current = surface(classes);
        Path baseline = Path.of("src", "test", "api", module + ".api");
        if (Boolean.getBoolean(UPDATE_PROPERTY) || !Files.exists(baseline)) {
            Files.createDirectories(baseline.getParent());
            Files.writeString(baseline, current);
            if (!Boolean.getBoolean(UPDATE_PROPERTY)) {
                fail("No API baseline for " + module + " yet: written to " + baseline + "; commit it");
            }
            return;
        }
        String kept = Files.readString(baseline);
        if (!kept.equals(current)) {
            Set<String> before = qualified(kept);
            Set<String> after = qualified(current);
            List<String> changes = new ArrayList<>();
            before.stream().filter(line -> !after.contains(line)).forEach(line -> changes.add("- " + line));
            after.stream().filter(line -> !before.contains(line)).forEach(line -> changes.add("+ " + line));
            fail("The public API of " + module + " changed (" + baseline + "):\n" + String.join("\n", changes)
                    + "\nIf the change is meant, run the module's tests with -D" + UPDATE_PROPERTY
                    + "=true and commit the baseline with it (docs/versioning.md says which changes a version allows)");
        }
    }

    /** Each member line prefixed with its type's, so that a change names where it is. */
    private static Set<String> qualified(String surface) {
        Set<String> lines = new TreeSet<>();
        String type = "";
        for (String line : surface.lines().toList()) {
            if (line.startsWith("  ")) {
                lines.add(type + " { " + line.strip() + " }");
            } else {
                type = line;
                lines.add(line);
            }
        }
        return lines;
    }

    /**
     * The API, one line per type and one per member, sorted.
     *
     * @param classes the module's classes
     * @return the text of the API
     */
    public static String surface(JavaClasses classes) {
        StringBuilder text = new StringBuilder();
        classes.stream().filter(ApiBaseline::published).sorted((a, b) -> a.getName().compareTo(b.getName()))
                .forEach(type -> {
                    text.append(describe(type)).append('\n');
                    Set<String> members = new TreeSet<>();
                    type.getMembers().stream().filter(member -> visible(type, member))
                            .forEach(member -> members.add(describe(member)));
                    members.forEach(member -> text.append("  ").append(member).append('\n'));
                });
        return text.toString();
    }

    private static boolean published(JavaClass type) {
        if (type.getPackageName().contains(".internal") || type.isAnonymousClass() || type.isLocalClass()
                || type.getSimpleName().equals("package-info")) {
            return false;
        }
        for (Optional<JavaClass> level = Optional.of(type); level.isPresent();
                level = level.get().getEnclosingClass()) {
            if (!level.get().getModifiers().contains(JavaModifier.PUBLIC)) {
                return false;
            }
        }
        return true;
    }

    private static boolean visible(JavaClass type, JavaMember member) {
        Set<JavaModifier> modifiers = member.getModifiers();
        if (modifiers.contains(JavaModifier.SYNTHETIC) || modifiers.contains(JavaModifier.BRIDGE)) {
            return false;
        }
        // a protected member of a final class is out of every user's reach
        return modifiers.contains(JavaModifier.PUBLIC) || (modifiers.contains(JavaModifier.PROTECTED)
                && !type.getModifiers().contains(JavaModifier.FINAL));
    }

    private static String describe(JavaClass type) {
        String kind = type.isAnnotation() ? "@interface" : type.isEnum() ? "enum" : type.isRecord() ? "record"
                : type.isInterface() ? "interface" : "class";
        StringBuilder line = new StringBuilder(modifiers(type.getModifiers(), type.isInterface()))
                .append(kind).append(' ').append(type.getName());
        type.getRawSuperclass().filter(parent -> !parent.getName().equals(Object.class.getName())
                && !parent.getName().equals(Enum.class.getName()) && !parent.getName().equals(Record.class.getName()))
                .ifPresent(parent -> line.append(" extends ").append(parent.getName()));
        String interfaces = type.getRawInterfaces().stream().map(JavaClass::getName)
                .filter(name -> !type.isAnnotation() || !name.equals(java.lang.annotation.Annotation.class.getName()))
                .sorted().collect(Collectors.joining(", "));
        if (!interfaces.isEmpty()) {
            line.append(type.isInterface() ? " extends " : " implements ").append(interfaces);
        }
        return line.toString();
    }

    private static String describe(JavaMember member) {
        StringBuilder line = new StringBuilder(modifiers(member.getModifiers(), false));
        if (member instanceof JavaField field) {
            return line.append(typeName(field.getRawType())).append(' ').append(field.getName()).toString();
        }
        JavaCodeUnit code = (JavaCodeUnit) member;
        String parameters = code.getRawParameterTypes().stream().map(ApiBaseline::typeName)
                .collect(Collectors.joining(", "));
        if (code.isConstructor()) {
            return line.append("<init>(").append(parameters).append(')').toString();
        }
        return line.append(typeName(code.getRawReturnType())).append(' ').append(code.getName()).append('(')
                .append(parameters).append(')').toString();
    }

    private static String typeName(JavaClass type) {
        return type.isArray() ? typeName(type.getComponentType()) + "[]" : type.getName();
    }

    private static String modifiers(Set<JavaModifier> modifiers, boolean isInterface) {
        StringBuilder text = new StringBuilder();
        for (JavaModifier modifier : SHOWN) {
            if (modifiers.contains(modifier) && !(isInterface && modifier == JavaModifier.ABSTRACT)) {
                text.append(modifier.name().toLowerCase(Locale.ROOT)).append(' ');
            }
        }
        return text.toString();
    }
}
