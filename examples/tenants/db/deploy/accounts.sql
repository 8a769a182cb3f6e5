-- Deploy tenants:accounts to pg

BEGIN;

CREATE TABLE accounts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL UNIQUE,
  -- A "DROP TABLE" in a comment is not a statement, nor is one in a string.
  note text NOT NULL DEFAULT 'never DROP TABLE accounts'
);

COMMIT;
