package io.github.resiliencestarter.webflux;

import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * The one blocking call of these tests that is not the starter's: Jackson guards the first build of
 * a type's deserializer with a lock, which two concurrent first requests contend for. Allowed there,
 * on Jackson 2 (Boot 3) and Jackson 3 (Boot 4), and nowhere else.
 */
public final class JacksonCacheLockAllowance implements BlockHoundIntegration {

    @Override
    public void applyTo(BlockHound.Builder builder) {
        for (String cache : new String[] {"com.fasterxml.jackson.databind.deser.DeserializerCache",
                "tools.jackson.databind.deser.DeserializerCache"}) {
            builder.allowBlockingCallsInside(cache, "_createAndCacheValueDeserializer");
        }
    }
}
