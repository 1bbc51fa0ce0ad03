package io.github.resiliencestarter.it;

import org.springframework.data.jpa.repository.JpaRepository;

/** Spring Data JPA repository of {@link PurchaseOrder}. */
public interface PurchaseOrderRepository extends JpaRepository<PurchaseOrder, Long> {

    /**
     * Rows of one order number.
     *
     * @param orderNo the order number
     * @return how many rows carry it
     */
    long countByOrderNo(String orderNo);

    /**
     * Rows of one order number written for one user.
     *
     * @param orderNo the order number
     * @param owner the user
     * @return how many rows carry both
     */
    long countByOrderNoAndOwner(String orderNo, String owner);
}
