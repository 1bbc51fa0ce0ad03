/**
 * The order service: {@code order} creates and pays orders, {@code inventory} reserves stock over
 * real HTTP (same jar, its own endpoints, with fault injection), {@code BusinessProblem} renders
 * business rule violations as RFC 9457 problems.
 */
package io.github.resiliencestarter.sample;
