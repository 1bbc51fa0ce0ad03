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

    /**
     * Creates the driver.
     *
     * @param name the entry point's name
     * @param publish sends a message: its id (the key) and its body
     */
    public MessageEntryPoint(String name, BiConsumer<String, String> publish) {
        this.name = name;
        this.publish = publish;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Set<EntryPointCapability> capabilities() {
        return EnumSet.noneOf(EntryPointCapability.class);
    }

    @Override
    public ContractAnswer send(String caller, String key, String payload, @Nullable Duration budget) {
        int before = ContractWork.handledCount(key);
        publish.accept(key, payload);
        Eventually.waitUntil("a delivery of " + key + " handled", () -> ContractWork.handledCount(key) > before);
        return new ContractAnswer(202, payload.getBytes(StandardCharsets.UTF_8), Map.of(), false);
    }

    @Override
    public String toString() {
        return name;
    }
}
