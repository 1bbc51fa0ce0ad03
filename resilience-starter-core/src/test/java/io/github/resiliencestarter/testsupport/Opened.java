package io.github.resiliencestarter.testsupport;

import java.util.ArrayList;
import java.util.List;

/**
 * What a test opened (servers, clients, stores), closed last first, every one of them even when
 * closing another fails: a client that throws on shutdown must not leave the servers under it
 * running after the test (a cluster node outlived a failed run that way).
 */
public final class Opened implements AutoCloseable {

    private final List<AutoCloseable> opened = new ArrayList<>();

    /**
     * Closes {@code resource} when this closes, before whatever was added earlier.
     *
     * @param resource what to close
     * @param <T> its type
     * @return {@code resource}
     */
    public <T extends AutoCloseable> T add(T resource) {
        opened.add(resource);
        return resource;
    }

    /**
     * Closes everything added, the last first; throws the first failure, the others suppressed in it.
     *
     * @throws Exception the first failure to close
     */
    @Override
    public void close() throws Exception {
        Exception first = null;
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception ex) {
                if (first == null) {
                    first = ex;
                } else {
                    first.addSuppressed(ex);
                }
            }
        }
        opened.clear();
        if (first != null) {
            throw first;
        }
    }
}
