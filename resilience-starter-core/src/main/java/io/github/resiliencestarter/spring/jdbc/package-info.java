/** JDBC statements bounded by the request's remaining budget (rule T-P4). */
package io.github.resiliencestarter.spring.jdbc;
