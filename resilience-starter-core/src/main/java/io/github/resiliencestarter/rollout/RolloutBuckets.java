package io.github.resiliencestarter.rollout;

/**
 * Places a selector (an idempotency key, a trace id) in one of {@value #BUCKETS} buckets, the same
 * on every node and every JVM: FNV-1a over the string's UTF-16 code units, then a 64-bit finalizer
 * so that keys differing in their last characters spread over all buckets. Nothing of the JVM's
 * own hashing or seeding is involved.
 */
public final class RolloutBuckets {

    /** Buckets, so a rollout share is exact to a hundredth of a percent. */
    public static final int BUCKETS = 10_000;

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;

    private static final long FNV_PRIME = 0x100000001b3L;

    private RolloutBuckets() {
    }

    /**
     * The selector's bucket.
     *
     * @param selector what identifies the request across nodes
     * @return a bucket from 0 to {@value #BUCKETS} - 1
     */
    public static int bucket(CharSequence selector) {
        long hash = FNV_OFFSET;
        for (int i = 0; i < selector.length(); i++) {
            hash ^= selector.charAt(i);
            hash *= FNV_PRIME;
        }
        // the finalizer of SplitMix64: every input bit reaches every output bit
        hash ^= hash >>> 30;
        hash *= 0xbf58476d1ce4e5b9L;
        hash ^= hash >>> 27;
        hash *= 0x94d049bb133111ebL;
        hash ^= hash >>> 31;
        return (int) Long.remainderUnsigned(hash, BUCKETS);
    }
}
