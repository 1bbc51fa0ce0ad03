/** Auto-configuration of metrics, the store health indicator, the advisor and the actuator endpoint. */
package io.github.resiliencestarter.autoconfigure.observability;
