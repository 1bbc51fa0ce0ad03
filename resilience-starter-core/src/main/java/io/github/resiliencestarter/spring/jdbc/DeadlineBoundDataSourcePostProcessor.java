package io.github.resiliencestarter.spring.jdbc;

import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;

/** Wraps every {@link DataSource} bean in a {@link DeadlineBoundDataSource}. */
public class DeadlineBoundDataSourcePostProcessor implements BeanPostProcessor {

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof DataSource dataSource && !(bean instanceof DeadlineBoundDataSource)) {
            return new DeadlineBoundDataSource(dataSource);
        }
        return bean;
    }
}
