/**
 * Spring AOT and native images: what the starter loads and reflects on, told to the AOT engine as
 * runtime hints, for the starter itself ({@code ResilienceRuntimeHints}) and for each bean whose
 * methods carry its annotations ({@code AnnotatedBeanHints}).
 */
@NullMarked
package io.github.resiliencestarter.autoconfigure.aot;

import org.jspecify.annotations.NullMarked;
