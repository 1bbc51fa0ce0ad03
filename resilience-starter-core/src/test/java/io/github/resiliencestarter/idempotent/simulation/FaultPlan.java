package io.github.resiliencestarter.idempotent.simulation;

import java.util.ArrayList;
import java.util.List;

/**
 * The faults of one schedule, as windows of simulated time: a node cut off from the store (its
 * requests and replies lost), the store frozen (requests applied only when it thaws, so a caller
 * may time out on a command that is applied later), a lossy network (messages lost, or delayed
 * past the command timeout), a node paused (a stop-the-world
 * pause: none of its threads runs) and a node crashed and restarted.
 */
final class FaultPlan {

    /** A window of simulated time, nanoseconds. */
    record Window(int node, long from, long to, double probability) {

        boolean covers(long at) {
            return from <= at && at < to;
        }
    }

    final List<Window> cuts = new ArrayList<>();

    final List<Window> freezes = new ArrayList<>();

    final List<Window> losses = new ArrayList<>();

    final List<Window> pauses = new ArrayList<>();

    /** A crash at {@code from}, the node restarted at {@code to}. */
    final List<Window> crashes = new ArrayList<>();

    /** Whether messages between {@code node} and the store are lost at {@code at}. */
    boolean cut(int node, long at) {
        for (Window cut : cuts) {
            if ((cut.node() == node || cut.node() < 0) && cut.covers(at)) {
                return true;
            }
        }
        return false;
    }

    /** When the store thaws, if frozen at {@code at}; else {@code at}. */
    long thawed(long at) {
        for (Window freeze : freezes) {
            if (freeze.covers(at)) {
                return freeze.to();
            }
        }
        return at;
    }

    double lossAt(long at) {
        for (Window loss : losses) {
            if (loss.covers(at)) {
                return loss.probability();
            }
        }
        return 0;
    }

    /**
     * Whether a second run of a key first run on {@code node} at {@code from} is one the guarantee
     * allows, the store having granted that key to another owner at {@code to}: the node crashed in
     * between (its holds died with it), or the grant came while the node could not keep its lease
     * (cut off, paused, the store frozen or losing messages), or within {@code recovery} of the end
     * of such a window, which is how long a node that comes back takes to extend its lease again. A
     * lease is kept for as long as its key is held (the work runs, its settlement is tried), so a
     * grant long after the faults ended is not one of those.
     */
    boolean excuses(int node, long from, long to, long recovery) {
        for (Window crash : crashes) {
            if (crash.node() == node && crash.from() <= to && from < crash.to()) {
                return true;
            }
        }
        for (List<Window> kind : List.of(cuts, freezes, pauses, losses)) {
            for (Window window : kind) {
                boolean concerns = kind == freezes || kind == losses || window.node() == node || window.node() < 0;
                if (concerns && window.from() <= to && from < window.to() && to <= window.to() + recovery) {
                    return true;
                }
            }
        }
        return false;
    }

    boolean isEmpty() {
        return cuts.isEmpty() && freezes.isEmpty() && losses.isEmpty() && pauses.isEmpty() && crashes.isEmpty();
    }

    @Override
    public String toString() {
        return "cuts=" + cuts + " freezes=" + freezes + " losses=" + losses + " pauses=" + pauses + " crashes="
                + crashes;
    }
}
