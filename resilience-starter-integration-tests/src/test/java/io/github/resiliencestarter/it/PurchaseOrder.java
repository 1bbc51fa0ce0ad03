package io.github.resiliencestarter.it;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A business row written through JPA by the test applications. */
@Entity
@Table(name = "it_purchase_order")
public class PurchaseOrder {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    private String orderNo;

    private String owner;

    protected PurchaseOrder() {
    }

    PurchaseOrder(String orderNo, String owner) {
        this.orderNo = orderNo;
        this.owner = owner;
    }

    Long getId() {
        return id;
    }

    String getOrderNo() {
        return orderNo;
    }

    String getOwner() {
        return owner;
    }
}
