-- Verify tenants:accounts on pg

SELECT id, email, note FROM accounts WHERE false;
