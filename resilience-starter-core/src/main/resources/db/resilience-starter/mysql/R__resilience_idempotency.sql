-- Idempotency records for MySQL 8 and MariaDB 10.6+ (a Flyway repeatable migration; also run by the
-- starter itself with initialize-schema, and by the Liquibase changelog beside this folder).
-- Times are epoch milliseconds. fingerprint stands for the request data (SHA-256 of its canonical
-- JSON); business_type is the operation name.
CREATE TABLE IF NOT EXISTS resilience_idempotency (
  id                BIGINT       NOT NULL AUTO_INCREMENT,
  idempotency_key   VARCHAR(255) NOT NULL,
  business_type     VARCHAR(255) NOT NULL,
  fingerprint       CHAR(64)     NOT NULL,
  status            VARCHAR(16)  NOT NULL,
  owner_token       VARCHAR(64)  NOT NULL,
  lease_expire_time BIGINT       NOT NULL,
  response_type     VARCHAR(255) NULL,
  response_data     LONGTEXT     NULL,
  create_time       BIGINT       NOT NULL,
  expire_time       BIGINT       NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_resilience_idempotency_key (idempotency_key),
  KEY idx_resilience_idempotency_expire (expire_time)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
