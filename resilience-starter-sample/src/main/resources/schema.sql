-- The sample's business tables; portable between H2 (MySQL mode) and MySQL/MariaDB.
CREATE TABLE IF NOT EXISTS orders (
  id          BIGINT         NOT NULL AUTO_INCREMENT PRIMARY KEY,
  order_no    VARCHAR(64)    NOT NULL,
  user_id     BIGINT         NOT NULL,
  product_id  BIGINT         NOT NULL,
  quantity    INT            NOT NULL,
  amount      DECIMAL(12, 2) NOT NULL,
  status      VARCHAR(16)    NOT NULL,
  version     INT            NOT NULL,
  created_at  TIMESTAMP(3)   NOT NULL,
  updated_at  TIMESTAMP(3)   NOT NULL,
  -- not unique, on purpose: @Idempotent alone keeps one order per number, and the end-to-end
  -- tests count the rows per number to prove it (docs/decisions.md). A service of your own
  -- should make it unique as well (docs/idempotency.md, the Redis store's crash window).
  INDEX idx_orders_order_no (order_no)
);

CREATE TABLE IF NOT EXISTS stock (
  product_id  BIGINT NOT NULL PRIMARY KEY,
  quantity    INT    NOT NULL,
  version     INT    NOT NULL
);

CREATE TABLE IF NOT EXISTS stock_reservation (
  order_no    VARCHAR(64) NOT NULL PRIMARY KEY,
  product_id  BIGINT      NOT NULL,
  quantity    INT         NOT NULL
);

INSERT INTO stock (product_id, quantity, version) SELECT 1, 1000000, 0 FROM DUAL
  WHERE NOT EXISTS (SELECT 1 FROM stock WHERE product_id = 1);
INSERT INTO stock (product_id, quantity, version) SELECT 2, 1000000, 0 FROM DUAL
  WHERE NOT EXISTS (SELECT 1 FROM stock WHERE product_id = 2);
INSERT INTO stock (product_id, quantity, version) SELECT 3, 1000000, 0 FROM DUAL
  WHERE NOT EXISTS (SELECT 1 FROM stock WHERE product_id = 3);

-- Points awarded per order-created event (profile rabbit). No unique key on purpose: the
-- listener's @Idempotent alone keeps it at one row per order.
CREATE TABLE IF NOT EXISTS loyalty_points (
  id          BIGINT      NOT NULL AUTO_INCREMENT PRIMARY KEY,
  order_no    VARCHAR(64) NOT NULL,
  points      INT         NOT NULL
);
