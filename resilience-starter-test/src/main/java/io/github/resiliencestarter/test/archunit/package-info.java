/**
 * ArchUnit rules for an application's own tests: what the starter checks at startup or cannot
 * check at all, found in the build instead. {@link io.github.resiliencestarter.test.archunit.ResilienceRules}
 * lists them; each rule's message names the member and the fix (docs/static-rules.md).
 */
@NullMarked
package io.github.resiliencestarter.test.archunit;

import org.jspecify.annotations.NullMarked;
