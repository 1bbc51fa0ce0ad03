/**
 * Outbound HTTP: interceptors that send the trace id, the remaining budget (minus a safety
 * margin) and the retry attempt downstream, and refuse to send anything once the budget is spent.
 */
@NullMarked
package io.github.resiliencestarter.spring.http;

import org.jspecify.annotations.NullMarked;
