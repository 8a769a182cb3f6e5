// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { JsonReader, parseJson } from "../../src/input/json_reader.ts";
import { ShapeError } from "../../src/input/shape_error.ts";

const D = `sha256:${"a".repeat(64)}`;
const SHA = "f".repeat(40);

/** The ShapeError `read` throws: its message, source and field. */
function refusal(read: () => unknown) {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ShapeError);
    const { message, source, field } = error as ShapeError;
    return { message, source, field };
  }
  throw new Error("expected a ShapeError");
}

/** A reader of `value` as the whole of `x.json`. */
const top = (value: unknown) => new JsonReader(value, { source: "x.json" });

Deno.test("JsonReader returns typed values and refuses others with one exact message", async (t) => {
  const cases: {
    name: string;
    read: () => unknown;
    message: string;
    field: string;
  }[] = [
    {
      name: "not an object",
      read: () => top([1]).object(),
      message: "x.json: is not an object: [1]",
      field: "",
    },
    {
      name: "a missing member",
      read: () => top({}).get("planDigest").digest(),
      message: 'x.json: has no "planDigest"',
      field: "",
    },
    {
      name: "a missing member below the top",
      read: () =>
        top({ runs: [{}] }).get("runs").list()[0].get("target").string(),
      message: 'x.json: "runs[0]" has no "target"',
      field: '"runs[0]"',
    },
    {
      name: "a string of the wrong type",
      read: () => top({ gate: 7 }).get("gate").string(),
      message: 'x.json: "gate" is not a string: 7',
      field: '"gate"',
    },
    {
      name: "an empty string",
      read: () => top({ by: "" }).get("by").string({ nonEmpty: true }),
      message: 'x.json: "by" is empty',
      field: '"by"',
    },
    {
      name: "a long string, never echoed",
      read: () => top({ by: "b".repeat(9) }).get("by").string({ max: 8 }),
      message: 'x.json: "by" is longer than 8 characters',
      field: '"by"',
    },
    {
      name: "a control character, never echoed",
      read: () =>
        top({ by: "a\u001b[2J" }).get("by").string({ printable: true }),
      message: 'x.json: "by" holds a control character',
      field: '"by"',
    },
    {
      name: "not a boolean",
      read: () => top({ empty: "yes" }).get("empty").boolean(),
      message: 'x.json: "empty" is not true or false: "yes"',
      field: '"empty"',
    },
    {
      name: "a fraction",
      read: () => top({ members: 1.5 }).get("members").integer(),
      message: 'x.json: "members" is not a whole number of at least 0: 1.5',
      field: '"members"',
    },
    {
      name: "a number out of its range",
      read: () => top({ waves: 0 }).get("waves").integer({ min: 1, max: 9 }),
      message: 'x.json: "waves" is not a whole number from 1 to 9: 0',
      field: '"waves"',
    },
    {
      name: "not a list",
      read: () => top({ runs: {} }).get("runs").list(),
      message: 'x.json: "runs" is not a list: {}',
      field: '"runs"',
    },
    {
      name: "too many entries",
      read: () => top({ runs: [1, 2, 3] }).get("runs").list(2),
      message: 'x.json: "runs" has 3 entries; at most 2',
      field: '"runs"',
    },
    {
      name: "a digest of the wrong form, cut at 60 characters",
      read: () => top({ d: D.toUpperCase() }).get("d").digest(),
      message: `x.json: "d" is not sha256:<64 lowercase hex>: "SHA256:${
        "A".repeat(52)
      }…"`,
      field: '"d"',
    },
    {
      name: "a short sha",
      read: () => top({ head: "abc" }).get("head").fullSha(),
      message: 'x.json: "head" is not a full commit sha: "abc"',
      field: '"head"',
    },
    {
      name: "a word of two",
      read: () => top({ o: "maybe" }).get("o").oneOf(["ok", "failed"]),
      message: 'x.json: "o" is not "ok" or "failed": "maybe"',
      field: '"o"',
    },
    {
      name: "a word of three",
      read: () => top({ o: 3 }).get("o").oneOf(["a", "b", "c"]),
      message: 'x.json: "o" is not one of "a", "b", "c": 3',
      field: '"o"',
    },
    {
      name: "a nested path",
      read: () =>
        top({ changes: [{ a: 1 }, { a: 1, b: { c: 5 } }] }).get("changes")
          .list()[1].get("b").get("c").string(),
      message: 'x.json: "changes[1].b.c" is not a string: 5',
      field: '"changes[1].b.c"',
    },
    {
      name: "a list at the top",
      read: () => top([0, "x"]).list()[1].integer(),
      message: 'x.json: "[1]" is not a whole number of at least 0: "x"',
      field: '"[1]"',
    },
    {
      name: "a value that is not echoed",
      read: () =>
        new JsonReader({ token: 5 }, { source: "run locator", echo: false })
          .get("token").string(),
      message: 'run locator: "token" is not a string',
      field: '"token"',
    },
    {
      name: "no source: the caller names the input",
      read: () => new JsonReader({ a: null }).get("a").string(),
      message: '"a" is not a string: null',
      field: '"a"',
    },
    {
      name: "a failure in the reader's own words",
      read: () => top({ a: 1 }).get("a").fail("appears twice"),
      message: 'x.json: "a" appears twice',
      field: '"a"',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const got = refusal(c.read);
      expect(got.message).toBe(c.message);
      expect(got.field).toBe(c.field);
    });
  }
});

Deno.test("JsonReader reads the values it promises", () => {
  const r = top({
    s: "eu",
    n: 3,
    b: false,
    d: D,
    h: SHA,
    l: [{ x: "a" }],
  }).object();
  expect(r.get("s").string({ nonEmpty: true, max: 2, printable: true })).toBe(
    "eu",
  );
  expect(r.get("n").integer({ min: 1, max: 3 })).toBe(3);
  expect(r.get("b").boolean()).toBe(false);
  expect(r.get("d").digest()).toBe(D);
  expect(r.get("h").fullSha()).toBe(SHA);
  expect(r.get("l").list(1).map((e) => e.get("x").string())).toEqual(["a"]);
  expect(r.get("none").optional((x) => x.string())).toBeUndefined();
  expect(r.get("s").optional((x) => x.string())).toBe("eu");
  expect(r.unknownKeys(["s", "n"])).toEqual(["b", "d", "h", "l"]);
});

Deno.test("JsonReader reads only own members: __proto__ is a key like any other", () => {
  const r = top(parseJson('{"__proto__": {"x": 1}}')).object();
  expect(r.get("toString").absent).toBe(true);
  expect(r.get("__proto__").object().get("x").integer()).toBe(1);
});
