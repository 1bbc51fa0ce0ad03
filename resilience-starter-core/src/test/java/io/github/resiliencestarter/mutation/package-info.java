/**
 * The mutation score the build enforces: PIT's report read back, mutants killed counted apart
 * from those that timed out, and the surviving mutants written down as equivalent set aside.
 */
package io.github.resiliencestarter.mutation;
