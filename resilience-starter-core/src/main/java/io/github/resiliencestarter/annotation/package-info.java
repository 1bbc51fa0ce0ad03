/**
 * The annotations users put on their methods. They only carry settings; the Spring adapters in
 * {@code io.github.resiliencestarter.spring} read them and run the engines. Attributes left at their
 * "unset" value inherit from the named instance in {@code application.yml}, then from the defaults.
 */
@NullMarked
package io.github.resiliencestarter.annotation;

import org.jspecify.annotations.NullMarked;
