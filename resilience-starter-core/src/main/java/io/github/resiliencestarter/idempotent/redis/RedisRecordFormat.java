package io.github.resiliencestarter.idempotent.redis;

import io.github.resiliencestarter.idempotent.IdempotencyRecord;
import io.github.resiliencestarter.idempotent.IdempotencyRecordCorruptedException;
import io.github.resiliencestarter.idempotent.IdempotencyStatus;
import io.github.resiliencestarter.idempotent.StoredResponse;
import org.jspecify.annotations.Nullable;

/**
 * The Java side of the record text the Lua scripts write (see {@code prelude.lua}): lines
 * separated by {@code '\n'}, the response (any text) last. Times are the client's epoch
 * milliseconds; they inform (a {@code Retry-After}, the near cache) but do not decide: the key's
 * TTL, on Redis' clock, ends a lease and a record. Only the operation name is free text
 * before it, so it is escaped ({@code \} and line feeds) on the way in.
 */
final class RedisRecordFormat {

    /** Lines of an in-progress record: state, owner, lease expiry, created, fingerprint, name. */
    private static final int IN_PROGRESS_LINES = 6;

    /** Lines of a completed record before its response: state, expiry, type, flag, created, fingerprint, name. */
    private static final int COMPLETED_LINES = 7;

    private RedisRecordFormat() {
    }

    /**
     * The lines a record keeps from its claim (created, fingerprint, name), for a completion that
     * finds its in-progress record gone.
     *
     * @param createdAt when the record is written, epoch milliseconds
     * @param fingerprint the request fingerprint
     * @param name the operation name
     * @return the lines, without a final line feed
     */
    static String claimLines(long createdAt, String fingerprint, String name) {
        return Long.toString(createdAt) + '\n' + fingerprint + '\n' + escapeName(name);
    }

    /**
     * The operation name as one line of a record.
     *
     * @param name the operation name
     * @return the name with {@code \} and line feeds escaped
     */
    static String escapeName(String name) {
        if (name.indexOf('\\') < 0 && name.indexOf('\n') < 0) {
            return name;
        }
        return name.replace("\\", "\\\\").replace("\n", "\\n");
    }

    private static String unescapeName(String line) {
        if (line.indexOf('\\') < 0) {
            return line;
        }
        StringBuilder name = new StringBuilder(line.length());
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                char next = line.charAt(++i);
                name.append(next == 'n' ? '\n' : next);
            } else {
                name.append(c);
            }
        }
        return name.toString();
    }

    /**
     * Whether the stored text is a completed record, which no claim changes.
     *
     * @param text the stored text
     * @return whether it is completed
     */
    static boolean isCompleted(String text) {
        return text.startsWith("C\n");
    }

    /**
     * What a key holding another Redis type than a record's string is: a corrupted record, not an
     * outage (the server answered).
     *
     * @param reply the server's error reply, or {@code null}
     * @param cause the failure that carried it
     * @return the corruption when the reply says {@code WRONGTYPE}, else {@code null}
     */
    static @Nullable IdempotencyRecordCorruptedException anotherType(@Nullable String reply, @Nullable Throwable cause) {
        return reply != null && reply.startsWith("WRONGTYPE") ? anotherType(cause) : null;
    }

    /**
     * The corruption of a key that holds another Redis type than a record's string.
     *
     * @param cause what said so, or {@code null} when a script did
     * @return the exception
     */
    static IdempotencyRecordCorruptedException anotherType(@Nullable Throwable cause) {
        return new IdempotencyRecordCorruptedException("the key holds another Redis type", cause);
    }

    /**
     * Reads a record.
     *
     * @param key the record's key
     * @param text the stored text
     * @return the record
     * @throws IdempotencyRecordCorruptedException when the text is not a record
     */
    static IdempotencyRecord parse(String key, String text) {
        boolean completed = isCompleted(text);
        if (!completed && !text.startsWith("P\n")) {
            throw new IdempotencyRecordCorruptedException("unknown state in Redis", null);
        }
        int lines = completed ? COMPLETED_LINES : IN_PROGRESS_LINES;
        String[] line = new String[lines];
        int start = 0;
        for (int i = 0; i < lines; i++) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                if (i < lines - 1 || completed) {
                    throw new IdempotencyRecordCorruptedException("a record in Redis is cut short", null);
                }
                end = text.length();
            }
            line[i] = text.substring(start, end);
            start = end + 1;
        }
        try {
            if (completed) {
                String payload = "1".equals(line[3]) ? text.substring(start) : null;
                return new IdempotencyRecord(key, unescapeName(line[6]), line[5], IdempotencyStatus.COMPLETED, "", 0,
                        Long.parseLong(line[1]), new StoredResponse(line[2], payload), Long.parseLong(line[4]));
            }
            // the record's own expiry is the key's TTL, not in the text: the lease stands for it
            long leaseExpiresAt = Long.parseLong(line[2]);
            return new IdempotencyRecord(key, unescapeName(line[5]), line[4], IdempotencyStatus.IN_PROGRESS, line[1],
                    leaseExpiresAt, leaseExpiresAt, null, Long.parseLong(line[3]));
        } catch (NumberFormatException ex) {
            throw new IdempotencyRecordCorruptedException("a time in Redis is not a number", ex);
        }
    }
}
