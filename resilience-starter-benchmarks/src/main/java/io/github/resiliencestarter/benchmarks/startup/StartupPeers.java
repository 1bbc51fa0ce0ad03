package io.github.resiliencestarter.benchmarks.startup;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.RestController;

/**
 * Starts one variant's application and prints one JSON line: the time from the JVM's start until
 * {@link SpringApplication#run} returned, the process CPU spent until then, the heap used after
 * forced full collections, the loaded classes and the metaspace used, and whether the annotated
 * bean is proxied (a check that the library saw its annotations). The application listens on a
 * free port and is closed afterwards.
 *
 * <p>Variants: {@code plain}, {@code starter}, {@code resilience4j}. Each refers only to its own
 * library's classes, so it starts on a class path without the others.
 */
public final class StartupPeers {

    private StartupPeers() {
    }

    /**
     * Entry point.
     *
     * @param args the variant
     * @throws Exception when the application does not start
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: StartupPeers plain|starter|resilience4j");
        }
        String variant = args[0];
        Class<?> application = switch (variant) {
            case "plain" -> Class.forName(StartupPeers.class.getPackageName() + ".PlainApplication");
            case "starter" -> Class.forName(StartupPeers.class.getPackageName() + ".StarterApplication");
            case "resilience4j" -> Class.forName(StartupPeers.class.getPackageName() + ".Resilience4jApplication");
            default -> throw new IllegalArgumentException("unknown variant " + variant);
        };
        ConfigurableApplicationContext context = new SpringApplication(application).run("--server.port=0",
                "--logging.level.root=WARN", "--spring.main.banner-mode=off",
                "--resilience4j.retry.instances.orders.max-attempts=3",
                "--resilience4j.circuitbreaker.instances.orders.sliding-window-size=20");
        long startedMillis = ManagementFactory.getRuntimeMXBean().getUptime();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpuMillis = os.getProcessCpuTime() / 1_000_000;
        // the one controller of the application
        boolean proxied = context.getBeansWithAnnotation(RestController.class).values().stream()
                .anyMatch(AopUtils::isAopProxy);
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long metaspace = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getName().equals("Metaspace")).mapToLong(pool -> pool.getUsage().getUsed())
                .sum();
        int classes = ManagementFactory.getClassLoadingMXBean().getLoadedClassCount();
        int beans = context.getBeanDefinitionCount();
        context.close();
        System.out.println(String.format(Locale.ROOT, "{\"variant\":\"%s\",\"startedMs\":%d,\"cpuMs\":%d,"
                + "\"heapAfterGcBytes\":%d,\"metaspaceBytes\":%d,\"loadedClasses\":%d,\"beans\":%d,\"proxied\":%b}",
                variant, startedMillis, cpuMillis, heap, metaspace, classes, beans, proxied));
    }
}
