-- Verify tenants:invoices on pg

SELECT id, account_id, total_cents FROM invoices WHERE false;
