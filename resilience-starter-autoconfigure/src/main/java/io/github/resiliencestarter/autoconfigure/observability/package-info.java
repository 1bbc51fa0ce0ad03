/** Auto-configuration of metrics, the store health indicator, the advisor and the actuator endpoint. */
@NullMarked
package io.github.resiliencestarter.autoconfigure.observability;

import org.jspecify.annotations.NullMarked;
