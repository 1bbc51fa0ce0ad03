package io.github.resiliencestarter.spring.jdbc;

import io.github.resiliencestarter.context.Deadline;
import io.github.resiliencestarter.context.TraceContextHolder;
import io.github.resiliencestarter.timeout.DeadlineExceededException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Bounds every JDBC statement by the request's remaining budget (rule T-P4): before it runs, its
 * query timeout is lowered to the remaining budget (rounded up to whole seconds, the JDBC unit);
 * when the budget is already spent it is not sent at all; and when it comes back after the
 * deadline, the result is refused with a {@link DeadlineExceededException}, so no code keeps
 * working on an answer nobody waits for. Outside a deadline, statements run untouched.
 */
public class DeadlineBoundDataSource extends DelegatingDataSource {

    /**
     * Wraps a data source.
     *
     * @param target the data source
     */
    public DeadlineBoundDataSource(DataSource target) {
        super(target);
    }

    @Override
    public Connection getConnection() throws SQLException {
        return wrapConnection(super.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return wrapConnection(super.getConnection(username, password));
    }

    private static Connection wrapConnection(Connection connection) {
        return (Connection) Proxy.newProxyInstance(DeadlineBoundDataSource.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new ConnectionHandler(connection));
    }

    private static @Nullable Object invoke(Object target, Method method, Object @Nullable [] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException ex) {
            throw ex.getTargetException();
        }
    }

    /** Wraps the statements a connection creates. */
    private record ConnectionHandler(Connection target) implements InvocationHandler {

        @Override
        public @Nullable Object invoke(Object proxy, Method method, Object @Nullable [] args) throws Throwable {
            if (method.getName().equals("unwrap") && args != null && args[0] == Connection.class) {
                return target;
            }
            Object result = DeadlineBoundDataSource.invoke(target, method, args);
            if (result instanceof Statement statement) {
                Class<?> type = result instanceof CallableStatement ? CallableStatement.class
                        : result instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
                return Proxy.newProxyInstance(DeadlineBoundDataSource.class.getClassLoader(), new Class<?>[] {type},
                        new StatementHandler(statement));
            }
            return result;
        }
    }

    /** Applies the budget to each execution. */
    private record StatementHandler(Statement target) implements InvocationHandler {

        @Override
        public @Nullable Object invoke(Object proxy, Method method, Object @Nullable [] args) throws Throwable {
            if (!method.getName().startsWith("execute")) {
                return DeadlineBoundDataSource.invoke(target, method, args);
            }
            Deadline deadline = TraceContextHolder.current().deadline();
            if (deadline == null) {
                return DeadlineBoundDataSource.invoke(target, method, args);
            }
            int seconds = deadline.remainingQueryTimeoutSeconds();
            if (seconds == 0) {
                throw DeadlineExceededException.budgetSpent("SQL statement");
            }
            int configured = target.getQueryTimeout();
            if (configured == 0 || seconds < configured) {
                target.setQueryTimeout(seconds);
            }
            Object result;
            try {
                result = DeadlineBoundDataSource.invoke(target, method, args);
            } catch (SQLException ex) {
                if (deadline.isExpired()) {
                    throw new DeadlineExceededException("SQL statement", DeadlineExceededException.Reason.TIMED_OUT,
                            null, ex);
                }
                throw ex;
            }
            if (deadline.isExpired()) {
                // the answer came after the deadline (some servers end a timed-out SLEEP without an error)
                throw new DeadlineExceededException("SQL statement", DeadlineExceededException.Reason.TIMED_OUT, null,
                        null);
            }
            return result;
        }
    }
}
