package io.github.resiliencestarter.benchmarks.growth;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Startup cost against the number of annotated methods. Two steps, each in its own JVM so the
 * measured start sees no compiler classes and no warmed-up JIT:
 *
 * <ul>
 *   <li>{@code generate N MODE DIR}: writes and compiles a Spring Boot application with N methods
 *       spread over {@code ceil(N / 100)} component beans (at most 100 methods each). In mode
 *       {@code annotated} the methods carry a rotating mix of {@code @Timeout}, {@code @Retry},
 *       {@code @Idempotent} and all three together; in mode {@code plain} the very same classes carry
 *       none, so the difference between the two is the starter's share and not Spring's cost of
 *       scanning and creating the beans.</li>
 *   <li>{@code run N MODE OUT} (with DIR on the class path): starts that application
 *       ({@link WebApplicationType#NONE}), then prints and appends one JSON line to OUT: the
 *       duration of {@link SpringApplication#run} (wall and process CPU time), the heap used after forced full collections,
 *       the loaded class count and the metaspace used, and how many beans ended up proxied (a check
 *       that the starter saw the annotations).</li>
 * </ul>
 */
public final class StartupGrowth {

    /** Package of the generated application; inside the benchmarks' own namespace, never on the real class path. */
    static final String GENERATED_PACKAGE = "io.github.resiliencestarter.benchmarks.growth.generated";

    private static final int METHODS_PER_BEAN = 100;

    private StartupGrowth() {
    }

    /**
     * Entry point.
     *
     * @param args {@code generate N MODE DIR} or {@code run N MODE OUT}
     * @throws Exception when generating or starting fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: generate N annotated|plain DIR | run N annotated|plain OUT");
        }
        int methods = Integer.parseInt(args[1]);
        boolean annotated = switch (args[2]) {
            case "annotated" -> true;
            case "plain" -> false;
            default -> throw new IllegalArgumentException("mode is annotated or plain: " + args[2]);
        };
        switch (args[0]) {
            case "generate" -> generate(methods, annotated, Path.of(args[3]));
            case "run" -> run(methods, annotated, Path.of(args[3]));
            default -> throw new IllegalArgumentException("unknown step " + args[0]);
        }
    }

    private static void generate(int methods, boolean annotated, Path dir) throws IOException {
        Path sources = dir.resolve("src");
        Path classes = dir.resolve("classes");
        Path packageDir = sources.resolve(GENERATED_PACKAGE.replace('.', '/'));
        Files.createDirectories(packageDir);
        Files.createDirectories(classes);
        List<Path> files = new ArrayList<>();
        files.add(write(packageDir.resolve("GrowthApp.java"), "package " + GENERATED_PACKAGE + ";\n\n"
                + "@org.springframework.boot.autoconfigure.SpringBootApplication\n"
                + "public class GrowthApp {\n}\n"));
        int beans = (methods + METHODS_PER_BEAN - 1) / METHODS_PER_BEAN;
        int written = 0;
        for (int bean = 0; bean < beans; bean++) {
            StringBuilder source = new StringBuilder("package " + GENERATED_PACKAGE + ";\n\n"
                    + "import io.github.resiliencestarter.annotation.*;\n\n"
                    + "@org.springframework.stereotype.Component\n"
                    + "public class Bean" + bean + " {\n");
            for (int m = 0; m < METHODS_PER_BEAN && written < methods; m++, written++) {
                source.append('\n');
                if (annotated) {
                    source.append(annotations(written));
                }
                source.append("    public String call").append(m).append("(String id) {\n")
                        .append("        return id;\n    }\n");
            }
            source.append("}\n");
            files.add(write(packageDir.resolve("Bean" + bean + ".java"), source.toString()));
        }
        compile(files, classes);
    }

    /**
     * A rotating mix so every resolver is exercised; one method in four carries all three, the
     * heaviest case (three interceptors, three cached operations).
     */
    private static String annotations(int index) {
        String timeout = "    @Timeout(\"2s\")\n";
        // idempotent = true: a retried method must declare it is safe to repeat
        String retry = "    @Retry(maxAttempts = 3, idempotent = true)\n";
        String idempotent = "    @Idempotent(key = \"#id\", ttl = \"1h\")\n";
        return switch (index % 4) {
            case 0 -> timeout;
            case 1 -> retry;
            case 2 -> idempotent;
            default -> timeout + retry + idempotent;
        };
    }

    private static Path write(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    private static void compile(List<Path> files, Path classes) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IllegalStateException("No Java compiler: run on a JDK, not a JRE");
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager fileManager = compiler.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            // -parameters: the key expressions name the parameter (#id), as applications do
            List<String> options = List.of("-d", classes.toString(), "-parameters", "-proc:none",
                    "-classpath", System.getProperty("java.class.path"));
            StringWriter out = new StringWriter();
            boolean ok = compiler.getTask(out, fileManager, diagnostics, options, null,
                    fileManager.getJavaFileObjectsFromPaths(files)).call();
            if (!ok) {
                throw new IllegalStateException("Generated sources do not compile: " + diagnostics.getDiagnostics()
                        + out);
            }
        }
    }

    private static void run(int methods, boolean annotated, Path out) throws Exception {
        Class<?> app = Class.forName(GENERATED_PACKAGE + ".GrowthApp");
        SpringApplication application = new SpringApplication(app);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setLogStartupInfo(false);
        application.setDefaultProperties(Map.of(
                // the benchmarks' class path has JDBC and Redis; this application uses neither
                "spring.autoconfigure.exclude",
                "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration,"
                        + "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration,"
                        + "org.springframework.boot.autoconfigure.data.redis.RedisRepositoriesAutoConfiguration",
                "resilience.idempotent.store", "memory",
                "spring.main.banner-mode", "off",
                "logging.level.root", "WARN"));
        // CPU time too: on a shared machine the wall time also measures the neighbours' load
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpuBefore = os.getProcessCpuTime();
        long started = System.nanoTime();
        ConfigurableApplicationContext context = application.run();
        long startNanos = System.nanoTime() - started;
        long cpuNanos = os.getProcessCpuTime() - cpuBefore;
        long uptimeMillis = ManagementFactory.getRuntimeMXBean().getUptime();
        int proxied = 0;
        int beans = 0;
        for (String name : context.getBeanDefinitionNames()) {
            Class<?> type = context.getType(name);
            if (type != null && type.getName().startsWith(GENERATED_PACKAGE + ".Bean")) {
                beans++;
                if (AopUtils.isAopProxy(context.getBean(name))) {
                    proxied++;
                }
            }
        }
        // heap that survives full collections while the context is still open: what the application keeps
        long heap = heapAfterGc();
        String line = String.format(Locale.ROOT,
                "{\"methods\":%d,\"mode\":\"%s\",\"startMillis\":%.1f,\"startCpuMillis\":%.1f,\"jvmUptimeMillis\":%d,\"heapBytes\":%d,"
                        + "\"loadedClasses\":%d,\"metaspaceBytes\":%d,\"beans\":%d,\"proxiedBeans\":%d}",
                methods, annotated ? "annotated" : "plain", startNanos / 1e6, cpuNanos / 1e6, uptimeMillis, heap,
                ManagementFactory.getClassLoadingMXBean().getLoadedClassCount(), metaspaceUsed(), beans, proxied);
        System.out.println(line);
        try {
            Files.writeString(out, line + "\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        context.close();
    }

    private static long heapAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        // several rounds: finalization and reference processing can free more on the second pass
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static long metaspaceUsed() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().equals("Metaspace")) {
                return pool.getUsage().getUsed();
            }
        }
        return -1;
    }
}
