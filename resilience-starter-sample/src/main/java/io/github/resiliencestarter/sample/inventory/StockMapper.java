package io.github.resiliencestarter.sample.inventory;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/** Stock and reservations. */
@Mapper
public interface StockMapper extends BaseMapper<Stock> {

    /**
     * Takes {@code quantity} from a product, only if nobody changed it since it was read at
     * {@code version} and enough is left: an optimistic lock (rule I-7).
     *
     * @param productId the product
     * @param quantity how many
     * @param version the version read
     * @return 1 when taken, 0 on a version conflict or shortage
     */
    @Update("UPDATE stock SET quantity = quantity - #{quantity}, version = version + 1"
            + " WHERE product_id = #{productId} AND version = #{version} AND quantity >= #{quantity}")
    int decrement(@Param("productId") long productId, @Param("quantity") int quantity, @Param("version") int version);

    /**
     * Records a reservation; the order number is the primary key, so one order reserves once.
     *
     * @param orderNo the order number
     * @param productId the product
     * @param quantity how many
     * @return 1
     */
    @Insert("INSERT INTO stock_reservation (order_no, product_id, quantity) VALUES (#{orderNo}, #{productId},"
            + " #{quantity})")
    int insertReservation(@Param("orderNo") String orderNo, @Param("productId") long productId,
            @Param("quantity") int quantity);

    /**
     * How many units an order reserved, if it did.
     *
     * @param orderNo the order number
     * @return the quantity, or {@code null}
     */
    @Select("SELECT quantity FROM stock_reservation WHERE order_no = #{orderNo}")
    Integer reservedFor(@Param("orderNo") String orderNo);

    /**
     * Units left of a product after the reservations so far.
     *
     * @param productId the product
     * @return the units, or {@code null}
     */
    @Select("SELECT quantity FROM stock WHERE product_id = #{productId}")
    Integer available(@Param("productId") long productId);
}
