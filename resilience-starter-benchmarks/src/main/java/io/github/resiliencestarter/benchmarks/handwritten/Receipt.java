package io.github.resiliencestarter.benchmarks.handwritten;

/**
 * What creating an order answers.
 *
 * @param orderId the row's generated id
 * @param key the client's key
 * @param amount how many
 */
public record Receipt(long orderId, String key, int amount) {
}
