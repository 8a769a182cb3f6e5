-- Deploy tenants:invoices to pg
-- requires: accounts

BEGIN;

CREATE TABLE invoices (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  total_cents bigint NOT NULL CHECK (total_cents >= 0)
);

COMMIT;
