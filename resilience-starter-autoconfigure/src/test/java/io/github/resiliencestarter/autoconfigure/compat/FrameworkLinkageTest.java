package io.github.resiliencestarter.autoconfigure.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resiliencestarter.autoconfigure.ResilienceAutoConfiguration;
import io.github.resiliencestarter.idempotent.IdempotencyStore;
import io.github.resiliencestarter.testsupport.BootLine;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.Handle;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.SpringAsmInfo;
import org.springframework.asm.Type;

/**
 * The starter is compiled once, against Spring Boot 3.5 / Framework 6.2, and runs on Boot 4 /
 * Framework 7 too (docs/internals/decisions.md). This test reads every class of the core and
 * auto-configuration modules and links each reference into Spring against the Spring on the test
 * classpath: a method or field that is gone or changed its signature (Framework 7's
 * {@code HttpHeaders} is no longer a {@code MultiValueMap}) fails here, on the Boot 4 legs, even
 * where no other test happens to call it. References into the other line's bridge package are
 * skipped: that package is switched off on this line.
 */
class FrameworkLinkageTest {

    @Test
    void everyReferenceIntoSpringLinksOnTheSpringOfThisLine() throws Exception {
        String otherBridge = BootLine.current() == BootLine.BOOT_3 ? "autoconfigure/boot4/" : "autoconfigure/boot3/";
        Set<String> broken = new TreeSet<>();
        int checked = 0;
        for (Path location : List.of(classesOf(IdempotencyStore.class), classesOf(ResilienceAutoConfiguration.class))) {
            // a module's classes directory in the reactor, or its installed jar
            FileSystem jar = Files.isDirectory(location) ? null : FileSystems.newFileSystem(location);
            Path root = jar == null ? location : jar.getPath("/");
            try (jar; Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(path -> path.toString().endsWith(".class")).toList()) {
                    if (file.toString().replace('\\', '/').contains(otherBridge)) {
                        continue;
                    }
                    for (Reference reference : references(file)) {
                        checked++;
                        String problem = reference.problem();
                        if (problem != null) {
                            broken.add(root.relativize(file) + ": " + problem);
                        }
                    }
                }
            }
        }
        assertThat(checked).as("references into Spring read").isGreaterThan(100);
        assertThat(broken).as("references that do not link on Spring Boot " + BootLine.current()).isEmpty();
    }

    private static Path classesOf(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static Set<Reference> references(Path file) throws IOException {
        Set<Reference> found = new HashSet<>();
        try (InputStream in = Files.newInputStream(file)) {
            new ClassReader(in).accept(new ClassVisitor(SpringAsmInfo.ASM_VERSION) {
                @Override
                public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                        String[] exceptions) {
                    return new MethodVisitor(SpringAsmInfo.ASM_VERSION) {
                        @Override
                        public void visitMethodInsn(int opcode, String owner, String method, String desc,
                                boolean isInterface) {
                            found.add(new Reference(owner, method, desc, false));
                        }

                        @Override
                        public void visitFieldInsn(int opcode, String owner, String field, String desc) {
                            found.add(new Reference(owner, field, desc, true));
                        }

                        @Override
                        public void visitInvokeDynamicInsn(String method, String desc, Handle bootstrap,
                                Object... arguments) {
                            for (Object argument : arguments) {
                                if (argument instanceof Handle handle) {
                                    found.add(new Reference(handle.getOwner(), handle.getName(), handle.getDesc(),
                                            handle.getTag() <= 4));
                                }
                            }
                        }
                    };
                }
            }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        }
        found.removeIf(reference -> !reference.owner().startsWith("org/springframework/"));
        return found;
    }

    /** A member one class uses, as the bytecode names it. */
    record Reference(String owner, String name, String descriptor, boolean field) {

        /** Why it does not link, or {@code null} when it does (or its library is absent on this line). */
        String problem() {
            Class<?> type;
            try {
                type = Class.forName(owner.replace('/', '.'), false, FrameworkLinkageTest.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError absent) {
                // an optional library the application does not have: its adapter stays off
                return null;
            }
            boolean links = field ? hasField(type) : hasMethod(type);
            return links ? null : owner + "." + name + descriptor;
        }

        private boolean hasField(Class<?> type) {
            for (Class<?> current = type; current != null; current = current.getSuperclass()) {
                for (Field candidate : current.getDeclaredFields()) {
                    if (candidate.getName().equals(name) && Type.getDescriptor(candidate.getType()).equals(descriptor)) {
                        return true;
                    }
                }
            }
            return false;
        }

        private boolean hasMethod(Class<?> type) {
            Deque<Class<?>> pending = new ArrayDeque<>(List.of(type));
            Set<Class<?>> seen = new HashSet<>();
            while (!pending.isEmpty()) {
                Class<?> current = pending.pop();
                if (!seen.add(current)) {
                    continue;
                }
                if (name.equals("<init>")) {
                    for (Constructor<?> candidate : current.getDeclaredConstructors()) {
                        if (Type.getConstructorDescriptor(candidate).equals(descriptor)) {
                            return true;
                        }
                    }
                    return false;
                }
                for (Method candidate : current.getDeclaredMethods()) {
                    if (candidate.getName().equals(name) && Type.getMethodDescriptor(candidate).equals(descriptor)) {
                        return true;
                    }
                }
                if (current.getSuperclass() != null) {
                    pending.add(current.getSuperclass());
                }
                pending.addAll(List.of(current.getInterfaces()));
            }
            // methods every object has, reached through an interface type
            return type.isInterface() && hasObjectMethod();
        }

        private boolean hasObjectMethod() {
            for (Method candidate : Object.class.getDeclaredMethods()) {
                if (candidate.getName().equals(name) && Type.getMethodDescriptor(candidate).equals(descriptor)) {
                    return true;
                }
            }
            return false;
        }
    }
}
