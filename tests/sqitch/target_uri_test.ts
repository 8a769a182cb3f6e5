// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  checkedTargetUri,
  URI_PARAMETERS,
  withoutPassword,
} from "../../src/sqitch/target_uri.ts";

const PLAIN_ONLY =
  "; chant-wave passes libpq only letters, digits and _ . - / : , @ ~ there";

Deno.test("checkedTargetUri() passes the URIs a deploy connects with, without their password", async (t) => {
  const cases: [string, string, string][] = [
    ["a database name", "db:pg:tenant_eu-01", "db:pg:tenant_eu-01"],
    ["no database at all", "db:pg:", "db:pg:"],
    [
      "user, password, host, port, database and parameters",
      "db:pg://app:s3cr%C3%A9t!@db.internal:5432/tenant_1?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem&connect_timeout=5",
      "db:pg://app@db.internal:5432/tenant_1?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem&connect_timeout=5",
    ],
    ["an IPv6 host", "db:pg://[::1]:5432/app", "db:pg://[::1]:5432/app"],
    [
      "a socket directory, escaped",
      "db:postgres://%2Fvar%2Frun%2Fpostgresql/app",
      "db:postgres://%2Fvar%2Frun%2Fpostgresql/app",
    ],
    [
      "several hosts, a user with a domain",
      "db:pg://app@corp@db-1,db-2/app?target_session_attrs=read-write",
      "db:pg://app@corp@db-1,db-2/app?target_session_attrs=read-write",
    ],
  ];
  for (const [name, uri, want] of cases) {
    await t.step(name, () => expect(checkedTargetUri(uri)).toBe(want));
  }
});

Deno.test("checkedTargetUri() refuses what would reach libpq as another keyword", async (t) => {
  const cases: [string, string, string][] = [
    [
      "a tab in the database name (sqitch does not escape it)",
      "db:pg:tenant_a%09options=-cstandard_conforming_strings=off",
      `the target "db:pg:tenant_a%09options=-cstandard_conforming_strings=off" holds "\\t" in its database name${PLAIN_ONLY}`,
    ],
    [
      "a newline written as it is",
      "db:pg:tenant_a\nclient_encoding=SJIS",
      `the target "db:pg:tenant_a\\nclient_encoding=SJIS" holds "\\n" in its database name${PLAIN_ONLY}`,
    ],
    [
      "a keyword in an allowed parameter's value",
      "db:pg:app?application_name=tenant%09client_encoding=SJIS",
      `the target "db:pg:app?application_name=***" holds "\\t" in its parameter application_name${PLAIN_ONLY}`,
    ],
    [
      "a + in a parameter is a space",
      "db:pg:app?application_name=a+options=x",
      `the target "db:pg:app?application_name=***" holds " " in its parameter application_name${PLAIN_ONLY}`,
    ],
    [
      "an = in a value",
      "db:pg:app?application_name=a=b",
      `the target "db:pg:app?application_name=***" holds "=" in its parameter application_name${PLAIN_ONLY}`,
    ],
    [
      "a ; that splits sqitch's registry connection",
      "db:pg://db;options=x/app",
      `the target "db:pg://db;options=x/app" holds ";" in its host${PLAIN_ONLY}`,
    ],
    [
      "a quote in the user",
      "db:pg://a%27b@db/app",
      `the target "db:pg://***@db/app" holds "'" in its user${PLAIN_ONLY}`,
    ],
    [
      "a port that is no number",
      "db:pg://db:5432%20options/app",
      `the target "db:pg://db:5432%20options/app" holds "5432%20options" in its port${PLAIN_ONLY}`,
    ],
    [
      "a % that starts no escape",
      "db:pg:app%zz",
      `the target "db:pg:app%zz" holds "%" in its database name${PLAIN_ONLY}`,
    ],
    [
      "a letter beyond ASCII",
      "db:pg:caf%C3%A9",
      `the target "db:pg:caf%C3%A9" holds "Ã" in its database name${PLAIN_ONLY}`,
    ],
    [
      "a fragment",
      "db:pg:app#x",
      `the target "db:pg:app#x" holds "#" in its database name${PLAIN_ONLY}`,
    ],
    [
      "a control character in the password (never shown)",
      "db:pg://app:a%0Ab@db/app",
      'the target "db:pg://***@db/app" has a password chant-wave cannot pass on as written: write it with %-escapes, and no control character',
    ],
    [
      "a parameter that sets how the server reads text",
      "db:pg:app?options=-c%20standard_conforming_strings%3Doff",
      'the target "db:pg:app?options=***" has the parameter "options"; chant-wave decides how the server reads the scripts, and lets a URI set only how it connects (sslmode, connect_timeout, application_name, …)',
    ],
    [
      "a service, whose file may set options",
      "db:pg:app?service=evil",
      'the target "db:pg:app?service=***" has the parameter "service"',
    ],
    [
      "a second database name",
      "db:pg:app?dbname=other",
      'the target "db:pg:app?dbname=***" has the parameter "dbname"',
    ],
  ];
  for (const [name, uri, want] of cases) {
    await t.step(name, () => expect(() => checkedTargetUri(uri)).toThrow(want));
  }
  await t.step("a named target's URI is named by the target", () => {
    expect(() => checkedTargetUri("db:pg:app?client_encoding=SJIS", "prod"))
      .toThrow(
        'the target "prod" (URI "db:pg:app?client_encoding=***" in sqitch\'s configuration) has the parameter "client_encoding"',
      );
  });
});

Deno.test("withoutPassword() removes only the password, from a URI or its template", () => {
  expect(withoutPassword("db:pg://ann:s3cret@db/tenant_{target}")).toBe(
    "db:pg://ann@db/tenant_{target}",
  );
  expect(withoutPassword("db:pg://ann@db/app?sslmode=require")).toBe(
    "db:pg://ann@db/app?sslmode=require",
  );
  expect(withoutPassword("prod")).toBe("prod");
});

Deno.test("docs/sqitch.md lists exactly the parameters a target URI may set", async () => {
  const docs = await Deno.readTextFile(
    new URL("../../docs/sqitch.md", import.meta.url),
  );
  const list = docs.match(/its query has a parameter other than([\s\S]*?)\(an/)
    ?.[1];
  expect([...(list ?? "").matchAll(/`([a-z_]+)`/g)].map((m) => m[1]))
    .toEqual([...URI_PARAMETERS]);
});
