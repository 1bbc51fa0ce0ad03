/**
 * Outbound HTTP: interceptors that send the trace id, the remaining budget (minus a safety
 * margin) and the retry attempt downstream, and refuse to send anything once the budget is spent.
 */
package io.github.resiliencestarter.spring.http;
