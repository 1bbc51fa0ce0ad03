package io.github.resiliencestarter.testsupport.contract;

import io.github.resiliencestarter.testsupport.Eventually;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * A message listener entry point as a producer drives it: the key is the message's id, the payload
 * its body. Nobody waits for an answer, so {@link #send} waits until the listener container is done
 * with a delivery of the key ({@link ContractWork#handled}) and says 202.
 */
public final class MessageEntryPoint implements EntryPoint {

    private final String name;

    private final BiConsumer<String, String> publish;

    private final @Nullable Consumers consumers;

    /** Whether {@link #send} waits for this JVM's consumers to be done with the delivery. */
    private final boolean handledHere;

    /**
     * Creates the driver.
     *
     * @param name the entry point's name
     * @param publish sends a message: its id (the key) and its body
     */
    public MessageEntryPoint(String name, BiConsumer<String, String> publish) {
        this(name, publish, null, true);
    }

    /**
     * Creates the driver of a {@link EntryPointCapability#KILLABLE} entry point: while a second
     * process runs, this JVM's consumers of the destination stop, so that the second process's
     * consumers take the delivery, and start again when it is closed, to take its redelivery.
     *
     * @param name the entry point's name
     * @param publish sends a message: its id (the key) and its body
     * @param consumers stops and starts this JVM's consumers of the destination
     */
    public MessageEntryPoint(String name, BiConsumer<String, String> publish, Consumers consumers) {
        this(name, publish, consumers, true);
    }

    private MessageEntryPoint(String name, BiConsumer<String, String> publish, @Nullable Consumers consumers,
            boolean handledHere) {
        this.name = name;
        this.publish = publish;
        this.consumers = consumers;
        this.handledHere = handledHere;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Set<EntryPointCapability> capabilities() {
        return consumers == null ? EnumSet.noneOf(EntryPointCapability.class)
                : EnumSet.of(EntryPointCapability.KILLABLE);
    }

    @Override
    public ContractAnswer send(String caller, String key, String payload, @Nullable Duration budget) {
        int before = ContractWork.handledCount(key);
        publish.accept(key, payload);
        if (handledHere) {
            Eventually.waitUntil("a delivery of " + key + " handled", () -> ContractWork.handledCount(key) > before);
        }
        return new ContractAnswer(202, payload.getBytes(StandardCharsets.UTF_8), Map.of(), false);
    }

    /** Sends to the same destination, with this JVM's consumers stopped until {@code process} is closed. */
    @Override
    public EntryPoint in(ContractProcess process) {
        Consumers local = consumers;
        if (local == null) {
            return EntryPoint.super.in(process);
        }
        local.stop();
        process.onClose(local::start);
        return new MessageEntryPoint(name, publish, null, false);
    }

    @Override
    public String toString() {
        return name;
    }

    /** This JVM's consumers of an entry point's destination. */
    public interface Consumers {

        /** Stops them: what they hold goes back to the broker. */
        void stop();

        /** Starts them again, and returns once they consume. */
        void start();
    }
}
