package io.github.resiliencestarter.core;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Sections of a thread that the starter's own interrupts cannot reach. A claim's settlement runs
 * in one: a store client interrupted mid-command gives up on a command that may already have been
 * applied, and a claim left unsettled would let a duplicate execute again. An interrupt the
 * starter sends to a thread inside a section (a timeout's timer, OFFLOAD's cancellation) is held
 * and delivered when the section ends; a flag already set when the section begins is held the
 * same way. Interrupts sent by other code with {@link Thread#interrupt()} are not held: they reach
 * the store client, which then fails, and the settlement tries the command again.
 *
 * <p>The sections are rare and short (one per settled claim): a map from thread to section, in
 * which entering, leaving and interrupting are each one atomic update, so an interrupt either
 * lands before a section begins or is held by it, never lost and never inside.
 */
public final class InterruptMask {

    private static final ConcurrentHashMap<Thread, Section> MASKED = new ConcurrentHashMap<>();

    private InterruptMask() {
    }

    /**
     * Runs {@code work} with the starter's interrupts held back, then delivers what was held.
     *
     * @param work the work, for example a store command
     * @param <T> the result type
     * @return what {@code work} returned
     */
    public static <T> T uninterruptibly(Supplier<T> work) {
        Thread self = Thread.currentThread();
        MASKED.compute(self, (thread, section) -> {
            Section entered = section != null ? section : new Section();
            entered.depth++;
            // a flag set before the section is held too, so the client never sees it
            if (Thread.interrupted()) {
                entered.pending++;
            }
            return entered;
        });
        try {
            return work.get();
        } finally {
            boolean[] deliver = new boolean[1];
            MASKED.compute(self, (thread, section) -> {
                if (section == null || --section.depth > 0) {
                    return section;
                }
                deliver[0] = section.pending > 0 || Thread.interrupted();
                return null;
            });
            if (deliver[0]) {
                self.interrupt();
            }
        }
    }

    /**
     * Interrupts {@code target} now, or when its current section ends.
     *
     * @param target the thread to interrupt
     * @return {@code true} when the interrupt is held for the end of a section
     */
    public static boolean interrupt(Thread target) {
        boolean[] held = new boolean[1];
        // delivered while the thread's entry is locked, so a section cannot begin between the check and the interrupt
        MASKED.compute(target, (thread, section) -> {
            if (section == null) {
                thread.interrupt();
            } else {
                section.pending++;
                held[0] = true;
            }
            return section;
        });
        return held[0];
    }

    /**
     * Takes back one interrupt held for the calling thread's section: its sender (a timeout that
     * the work outlived) has ended the work it was for, so it must not reach the thread later.
     */
    public static void withdraw() {
        MASKED.computeIfPresent(Thread.currentThread(), (thread, section) -> {
            if (section.pending > 0) {
                section.pending--;
            }
            return section;
        });
    }

    /** One thread's section: how deeply nested, and how many interrupts wait for its end. */
    private static final class Section {

        private int depth;

        private int pending;
    }
}
