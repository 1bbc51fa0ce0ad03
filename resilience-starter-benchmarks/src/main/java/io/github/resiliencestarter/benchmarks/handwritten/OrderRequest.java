package io.github.resiliencestarter.benchmarks.handwritten;

/**
 * An order as the client sends it.
 *
 * @param id the client's key for the order
 * @param amount how many
 */
public record OrderRequest(String id, int amount) {
}
