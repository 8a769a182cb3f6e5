// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  registryAnswer,
  registryQuery,
} from "../../src/sqitch/registry_query.ts";
import { ShapeError } from "../../src/input/shape_error.ts";

const A = "dc2462de80ae44f4b7a6bde7c36a69b6831e3c26";

/** The psql settings every query has after the connection string. */
const SETTINGS = [
  "--quiet",
  "--no-psqlrc",
  "--no-align",
  "--tuples-only",
  "--set=ON_ERROR_STOP=1",
  "--set=registry=sqitch",
  "--set=project=tenants",
];

Deno.test("registryQuery() connects as sqitch's own psql does", async (t) => {
  const args = (uri: string, env: Record<string, string> = {}) =>
    registryQuery(uri, "sqitch", "tenants", env);
  await t.step("a database name alone: libpq's variables do the rest", () => {
    expect(args("db:pg:tenant_eu-01")).toEqual({
      args: ["--dbname", "dbname=tenant_eu-01", ...SETTINGS],
    });
    expect(args("db:postgres:app")?.args[1]).toBe("dbname=app");
  });
  await t.step("no part at all: no --dbname", () => {
    expect(args("db:pg:")).toEqual({ args: SETTINGS });
  });
  await t.step(
    "user, database, host, port, then the parameters by name; the password for PGPASSWORD, decoded",
    () => {
      expect(
        args(
          "db:pg://ann:s3%40cret@db.internal:5433/app?sslmode=require&connect_timeout=5",
        ),
      ).toEqual({
        args: [
          "--dbname",
          "user=ann dbname=app host=db.internal port=5433 connect_timeout=5 sslmode=require",
          ...SETTINGS,
        ],
        password: "s3@cret",
      });
    },
  );
  await t.step("another registry", () => {
    expect(registryQuery("db:pg:app", "meta", "tenants", {})?.args).toContain(
      "--set=registry=meta",
    );
  });
  await t.step(
    "anything else is left to sqitch: escapes, other characters, repeated or unknown parameters, no database path, a registry PostgreSQL would fold, SQITCH_USERNAME or SQITCH_PASSWORD",
    () => {
      for (
        const uri of [
          "db:pg:tenant%5Fa",
          "db:pg:a/b",
          "db:pg://host",
          "db:pg://ann@xn--bcher-kva.example/app",
          "db:pg://[::1]/app",
          "db:pg:app?sslmode=require&sslmode=disable",
          "db:pg:app?options=x",
          "db:pg:app?sslmode=a=b",
          "db:sqlite:app",
          "db:pg://ann:%zz@host/app",
        ]
      ) {
        expect([uri, args(uri)]).toEqual([uri, undefined]);
      }
      for (const registry of ["Meta", "a,b", "a b", '"x"', ""]) {
        expect(registryQuery("db:pg:app", registry, "tenants", {})).toBe(
          undefined,
        );
      }
      expect(args("db:pg:app", { SQITCH_USERNAME: "ann" })).toBe(undefined);
      expect(args("db:pg:app", { SQITCH_PASSWORD: "x" })).toBe(undefined);
    },
  );
});

Deno.test("registryAnswer() reads one line of JSON, and nothing else", async (t) => {
  await t.step("the three answers", () => {
    expect(registryAnswer('{"registry":"none"}\n')).toEqual({
      registry: "none",
    });
    expect(registryAnswer('{"registry":"unknown"}\n')).toEqual({
      registry: "unknown",
    });
    expect(
      registryAnswer(`{"registry" : "known", "change" : "${A}"}\n`),
    ).toEqual({ registry: "known", change: A });
    expect(registryAnswer('{"registry":"known","change":null}\n')).toEqual({
      registry: "known",
      change: null,
    });
  });
  await t.step(
    "a second line, a value of another shape or another field is a clear error",
    () => {
      for (
        const stdout of [
          "",
          "\n",
          `{"registry":"known","change":"${A}"}\n{"registry":"none"}\n`,
          `{"registry":"known","change":"${A.toUpperCase()}"}\n`,
          `{"registry":"known","change":"${A}\\n"}\n`,
          '{"registry":"known"}\n',
          '{"registry":"none","change":null}\n',
          '{"registry":"known","change":null,"note":"x"}\n',
          '["none"]\n',
          "null\n",
          "No changes deployed\n",
        ]
      ) {
        expect(() => registryAnswer(stdout)).toThrow(ShapeError);
      }
      expect(() => registryAnswer("oops\n")).toThrow(
        'answered "oops\\n", not one line of {"registry": …}',
      );
    },
  );
});
