/** Redis commands refused once the request's budget is spent (rule T-P4), opt-in. */
package io.github.resiliencestarter.spring.redis;
