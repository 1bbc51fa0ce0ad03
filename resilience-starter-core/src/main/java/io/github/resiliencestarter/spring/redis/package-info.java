/** Redis commands refused once the request's budget is spent (rule T-P4), opt-in. */
@NullMarked
package io.github.resiliencestarter.spring.redis;

import org.jspecify.annotations.NullMarked;
