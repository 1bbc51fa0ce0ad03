package io.github.resiliencestarter.sample.order;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import java.time.LocalDateTime;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/** Orders table access. */
@Mapper
public interface OrderMapper extends BaseMapper<Order> {

    /**
     * The order with this number (the first one, should there be two: the number is not a unique
     * key, so that the tests can count what {@code @Idempotent} alone prevents).
     *
     * @param orderNo the order number
     * @return the order, or {@code null}
     */
    @Select("SELECT * FROM orders WHERE order_no = #{orderNo} ORDER BY id LIMIT 1")
    Order findByOrderNo(@Param("orderNo") String orderNo);

    /**
     * PENDING → PAID, only from PENDING: repeating it changes nothing (rule I-7).
     *
     * @param orderNo the order number
     * @param now the update time
     * @return 1 when this call paid the order, 0 otherwise
     */
    @Update("UPDATE orders SET status = 'PAID', version = version + 1, updated_at = #{now}"
            + " WHERE order_no = #{orderNo} AND status = 'PENDING'")
    int markPaid(@Param("orderNo") String orderNo, @Param("now") LocalDateTime now);
}
