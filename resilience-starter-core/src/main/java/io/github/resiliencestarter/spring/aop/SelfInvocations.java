package io.github.resiliencestarter.spring.aop;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.asm.SpringAsmInfo;
import org.springframework.asm.Type;

/**
 * Finds calls from a bean's own methods to its annotated methods, which bypass the proxy
 * ({@code this.slow()}, or {@code slow()}, inside the same class): the annotation does nothing for
 * them. Read from the class files with the ASM Spring ships, without loading or running anything;
 * a call to a method of the bean's own class hierarchy counts, whatever object it is made on,
 * which in a bean is almost always {@code this}. A method calling itself is left out (recursion
 * inside one governed call). Calls from a lambda are reported as made from the method it is in.
 * Used at startup ({@link AnnotatedMethodValidator}) and by the build-time rules of
 * {@code resilience-starter-test}.
 */
public final class SelfInvocations {

    private SelfInvocations() {
    }

    /**
     * One call that bypasses the proxy.
     *
     * @param caller the calling method, as the class file names it ({@code create}, or
     *     {@code a lambda in create})
     * @param callee the annotated method called
     */
    public record Call(String caller, Method callee) {
    }

    /**
     * The calls from {@code beanClass}'s own code to its annotated methods.
     *
     * @param beanClass the bean's class
     * @param annotated its annotated methods
     * @return each call, once per caller and callee
     */
    public static List<Call> find(Class<?> beanClass, Set<Method> annotated) {
        Map<String, Method> byNameAndDescriptor = new HashMap<>();
        for (Method method : annotated) {
            byNameAndDescriptor.put(method.getName() + Type.getMethodDescriptor(method), method);
        }
        Set<String> hierarchy = new HashSet<>();
        List<Class<?>> classes = new ArrayList<>();
        for (Class<?> type = beanClass; type != null && type != Object.class && !type.getName().startsWith("java.");
                type = type.getSuperclass()) {
            hierarchy.add(Type.getInternalName(type));
            classes.add(type);
        }
        Set<String> seen = new HashSet<>();
        List<Call> calls = new ArrayList<>();
        for (Class<?> type : classes) {
            ClassReader reader = read(type);
            if (reader == null) {
                continue;
            }
            reader.accept(new ClassVisitor(SpringAsmInfo.ASM_VERSION) {
                @Override
                public @Nullable MethodVisitor visitMethod(int access, String name, String descriptor,
                        @Nullable String signature, String @Nullable [] exceptions) {
                    if ((access & Opcodes.ACC_STATIC) != 0 && !name.startsWith("lambda$")) {
                        return null;
                    }
                    String caller = name.startsWith("lambda$") ? "a lambda in " + enclosing(name) : name;
                    String self = name + descriptor;
                    return new MethodVisitor(SpringAsmInfo.ASM_VERSION) {
                        @Override
                        public void visitMethodInsn(int opcode, String owner, String calledName, String calledDescriptor,
                                boolean isInterface) {
                            if ((opcode != Opcodes.INVOKEVIRTUAL && opcode != Opcodes.INVOKESPECIAL)
                                    || !hierarchy.contains(owner)) {
                                return;
                            }
                            String called = calledName + calledDescriptor;
                            Method callee = byNameAndDescriptor.get(called);
                            if (callee != null && !called.equals(self) && seen.add(caller + " -> " + called)) {
                                calls.add(new Call(caller, callee));
                            }
                        }
                    };
                }
            }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        }
        return calls;
    }

    /** {@code lambda$create$0} was written in {@code create}. */
    private static String enclosing(String lambda) {
        String[] parts = lambda.split("\\$");
        return parts.length > 1 ? parts[1] : lambda;
    }

    private static @Nullable ClassReader read(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        if (loader == null) {
            return null;
        }
        try (InputStream in = loader.getResourceAsStream(Type.getInternalName(type) + ".class")) {
            return in == null ? null : new ClassReader(in);
        } catch (IOException | RuntimeException unreadable) {
            // a generated or unreadable class: nothing to report
            return null;
        }
    }
}
