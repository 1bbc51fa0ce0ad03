/**
 * The contract every way into an {@code @Idempotent} execution keeps, written once: servlet, WebFlux,
 * gateway route, gRPC method, message listeners. A module drives its entry points through
 * {@link io.github.resiliencestarter.testsupport.contract.EntryPoint} and extends
 * {@link io.github.resiliencestarter.testsupport.contract.IdempotencyEntryPointContract}; behind each
 * entry point the same {@link io.github.resiliencestarter.testsupport.contract.ContractWork} counts
 * its effects in a table without a unique key.
 */
package io.github.resiliencestarter.testsupport.contract;
