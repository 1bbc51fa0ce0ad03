create table orders (id bigint auto_increment primary key, order_no varchar(64) not null unique);
