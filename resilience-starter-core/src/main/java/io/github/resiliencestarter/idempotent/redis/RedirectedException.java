package io.github.resiliencestarter.idempotent.redis;

import io.github.resiliencestarter.idempotent.IdempotencyStoreException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A server the store sent a key's call to ran nothing and named the key's master now: a
 * {@code MOVED} answer with the new master's address (the slot moved in a failover or a
 * resharding), or a {@code ROLE} of a demoted master naming the master it now replicates. Since
 * nothing ran, the call may be sent on to that master ({@link MasterConnections#redirectedTo});
 * where it is not, callers get {@link #asRefusal()}.
 */
final class RedirectedException extends IdempotencyStoreException {

    private static final long serialVersionUID = 1L;

    private final String host;

    private final int port;

    private RedirectedException(String message, String host, int port, @Nullable Throwable cause) {
        super(message, cause);
        this.host = host;
        this.port = port;
    }

    /**
     * The redirect in an error answer, when it is one.
     *
     * @param what the command that was answered
     * @param error the answer, e.g. {@code MOVED 3999 127.0.0.1:6381}
     * @return the redirect, or {@code null} for any other error or an address that cannot be read
     */
    static @Nullable RedirectedException fromMoved(String what, Throwable error) {
        String message = String.valueOf(error.getMessage());
        String[] parts = message.split(" ");
        if (parts.length != 3 || !parts[0].equals("MOVED")) {
            return null;
        }
        int colon = parts[2].lastIndexOf(':');
        Integer port = colon > 0 ? parsePort(parts[2].substring(colon + 1)) : null;
        if (port == null) {
            return null;
        }
        return new RedirectedException("Redis " + what + " failed: " + message, parts[2].substring(0, colon), port,
                error);
    }

    /**
     * The redirect in a {@code ROLE} answer of a server that is no longer a master.
     *
     * @param role the answer: {@code slave}, the master's host and port, ...
     * @return the redirect, or {@code null} when the answer names no master
     */
    static @Nullable RedirectedException fromReplicaRole(List<Object> role) {
        Integer port = role.size() > 2 ? parsePort(String.valueOf(role.get(2))) : null;
        if (port == null) {
            return null;
        }
        String host = String.valueOf(role.get(1));
        return new RedirectedException("Redis: the server written to is a " + role.get(0) + " of " + host + ":" + port
                + " now, no longer a master", host, port, null);
    }

    private static @Nullable Integer parsePort(String text) {
        try {
            return Integer.valueOf(text.trim());
        } catch (NumberFormatException notAPort) {
            return null;
        }
    }

    /**
     * The refusal as the store's callers see it when the redirect is not followed: a plain store
     * failure (503), not this class, which stays inside the store.
     *
     * @return the same message, cause and suppressed failures
     */
    IdempotencyStoreException asRefusal() {
        IdempotencyStoreException refusal = new IdempotencyStoreException(String.valueOf(getMessage()), getCause());
        for (Throwable suppressed : getSuppressed()) {
            refusal.addSuppressed(suppressed);
        }
        return refusal;
    }

    /** @return the host of the key's master now */
    String host() {
        return host;
    }

    /** @return its port */
    int port() {
        return port;
    }
}
