package io.github.resiliencestarter.sample;

import io.github.resiliencestarter.sample.inventory.StockMapper;
import io.github.resiliencestarter.sample.order.OrderMapper;
import org.apache.ibatis.session.SqlSessionFactory;
import org.mybatis.spring.mapper.MapperFactoryBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The MyBatis mappers, declared as beans rather than scanned: a mapper scan registers its beans in
 * a way Spring AOT cannot write down, so the application would not start processed ahead of time
 * (a native image, or {@code -Dspring.aot.enabled=true}). Declared, they work either way.
 */
@Configuration(proxyBeanMethods = false)
class MapperBeans {

    @Bean
    MapperFactoryBean<OrderMapper> orderMapper(SqlSessionFactory sessions) {
        return mapper(OrderMapper.class, sessions);
    }

    @Bean
    MapperFactoryBean<StockMapper> stockMapper(SqlSessionFactory sessions) {
        return mapper(StockMapper.class, sessions);
    }

    private static <T> MapperFactoryBean<T> mapper(Class<T> type, SqlSessionFactory sessions) {
        MapperFactoryBean<T> mapper = new MapperFactoryBean<>(type);
        mapper.setSqlSessionFactory(sessions);
        return mapper;
    }
}
