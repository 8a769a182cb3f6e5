-- Revert tenants:accounts from pg

DROP TABLE accounts;
