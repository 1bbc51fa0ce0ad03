/** JDBC statements bounded by the request's remaining budget (rule T-P4). */
@NullMarked
package io.github.resiliencestarter.spring.jdbc;

import org.jspecify.annotations.NullMarked;
