/**
 * Retry elsewhere (rule R-5) with Spring Cloud LoadBalancer: each attempt of one {@code @Retry}
 * call avoids the instances that failed its earlier attempts, while another is available.
 */
@NullMarked
package io.github.resiliencestarter.autoconfigure.loadbalancer;

import org.jspecify.annotations.NullMarked;
