package io.github.resiliencestarter.testsupport.contract;

/**
 * What one execution of {@link ContractWork} answers: the entry point turns it into its own answer
 * (an HTTP response with that status and a {@code Location}, a gRPC message, an acknowledgement).
 *
 * @param status the status the work asks for (201 unless the payload says otherwise)
 * @param body the answer's body, naming the execution
 * @param location where the effect can be found, a header a replay must carry
 */
public record WorkResult(int status, String body, String location) {
}
