package io.github.resiliencestarter.idempotent.simulation;

/**
 * How the simulated client makes the store's writes survive a failover, as a Redis store could:
 * {@code WAIT} for {@code replicas} acknowledgements after a claim and a completion (and a lease
 * extension when {@code extensions}), and, when a connection breaks, re-send what it had not been
 * answered (Lettuce's default) or fail it.
 *
 * @param replicas replicas that must acknowledge a write; 0 for none; {@link #KNOWN} for every
 *     replica Sentinel knows of (or more, should the master list more), the Redis store's
 *     {@code all}; {@link #LISTED} for those the master lists when the write is made, what
 *     {@code all} meant until the nemesis run showed its loss
 * @param extensions whether lease extensions wait too
 * @param resend whether unanswered commands are re-sent on the new connection
 * @param timeoutMillis how long {@code WAIT} waits
 */
record ReplicaAckPolicy(int replicas, boolean extensions, boolean resend, long timeoutMillis) {

    /** The {@code replicas} that stands for every replica the master lists now, as {@code ROLE} does. */
    static final int LISTED = Integer.MAX_VALUE;

    /** The {@code replicas} that stands for every replica Sentinel knows of, down ones included. */
    static final int KNOWN = Integer.MAX_VALUE - 1;

    /** No acknowledgement, Lettuce's re-send: the store's default today. */
    static final ReplicaAckPolicy NONE = new ReplicaAckPolicy(0, false, true, 0);

    boolean required() {
        return replicas > 0;
    }

    /**
     * @param listed the replicas the written master lists now
     * @param known the replicas Sentinel knows of
     * @return how many must acknowledge the write
     */
    int requiredOf(int listed, int known) {
        return switch (replicas) {
            case LISTED -> Math.max(1, listed);
            case KNOWN -> Math.max(1, Math.max(listed, known));
            default -> replicas;
        };
    }

    /**
     * Reads {@code none}, or {@code <replicas>[,extensions][,noresend]} where {@code <replicas>} is a
     * number, {@code all} or {@code listed}, as the exploration property gives it.
     */
    static ReplicaAckPolicy parse(String text) {
        if (text == null || text.isBlank() || text.equals("none")) {
            return NONE;
        }
        String[] parts = text.split(",");
        int replicas = switch (parts[0].trim()) {
            case "all" -> KNOWN;
            case "listed" -> LISTED;
            default -> Integer.parseInt(parts[0].trim());
        };
        boolean extensions = false;
        boolean resend = true;
        for (int i = 1; i < parts.length; i++) {
            switch (parts[i].trim()) {
                case "extensions" -> extensions = true;
                case "noresend" -> resend = false;
                default -> throw new IllegalArgumentException("unknown part " + parts[i]);
            }
        }
        return new ReplicaAckPolicy(replicas, extensions, resend, 250);
    }

    @Override
    public String toString() {
        return required() ? "WAIT " + (replicas == LISTED ? "every replica listed now" : replicas == KNOWN
                ? "every replica Sentinel knows" : replicas) + (extensions ? " (extensions too)" : "") + (resend ? ", re-send"
                : ", no re-send") : "no WAIT" + (resend ? ", re-send" : ", no re-send");
    }
}
