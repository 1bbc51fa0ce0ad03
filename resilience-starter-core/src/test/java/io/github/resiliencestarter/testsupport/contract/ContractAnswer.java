package io.github.resiliencestarter.testsupport.contract;

import java.util.Map;

/**
 * What a client of an entry point received: its status (HTTP's, or an entry point's own mapped to
 * HTTP's: gRPC {@code UNAVAILABLE} is 503), the body's bytes, the headers a replay must carry, and
 * whether it was marked as a replay.
 *
 * @param status the status
 * @param body the body's bytes
 * @param headers the answer's headers that a kept answer is replayed with, by lower-case name
 * @param replayed whether the answer says it is a replay
 */
public record ContractAnswer(int status, byte[] body, Map<String, String> headers, boolean replayed) {
}
