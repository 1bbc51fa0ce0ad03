/**
 * The hand-written alternative (issue 49): one application in which the same order effect (an
 * {@code INSERT} into a table without a unique key on the order's key) is reached three ways: bare,
 * behind the starter's {@code @Idempotent}, and behind what a team writes without a library (a
 * Redis {@code SET key 1 NX EX 600} before the call, a {@code DEL} when it fails, no stored
 * answer). {@code scripts/load.sh handwritten} drives it at a fixed rate and to saturation and reads
 * its CPU and allocation counters around each phase. Not the sample: nobody should copy this.
 */
@NullMarked
package io.github.resiliencestarter.benchmarks.handwritten;

import org.jspecify.annotations.NullMarked;
