package io.github.resiliencestarter.autoconfigure.propagation;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** In-service propagation settings ({@code resilience.propagation.*}). */
@ConfigurationProperties("resilience.propagation")
public class PropagationProperties {

    /** Whether every DataSource bean bounds its statements by the request's remaining budget (opt-in). */
    private boolean boundJdbcStatements;

    /** Whether every RedisConnectionFactory bean refuses commands once the request's budget is spent (opt-in). */
    private boolean boundRedisCommands;

    /** Whether Boot's task executor (and so @Async) carries the trace context and MDC. */
    private boolean taskExecutors = true;

    public boolean isBoundJdbcStatements() {
        return boundJdbcStatements;
    }

    public void setBoundJdbcStatements(boolean boundJdbcStatements) {
        this.boundJdbcStatements = boundJdbcStatements;
    }

    public boolean isBoundRedisCommands() {
        return boundRedisCommands;
    }

    public void setBoundRedisCommands(boolean boundRedisCommands) {
        this.boundRedisCommands = boundRedisCommands;
    }

    public boolean isTaskExecutors() {
        return taskExecutors;
    }

    public void setTaskExecutors(boolean taskExecutors) {
        this.taskExecutors = taskExecutors;
    }
}
