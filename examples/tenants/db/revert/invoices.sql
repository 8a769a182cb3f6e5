-- Revert tenants:invoices from pg

DROP TABLE invoices;
