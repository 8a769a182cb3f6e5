// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  checkedConfig,
  lineBreakInValue,
  wrappedConfig,
} from "../../src/sqitch/sqitch_config.ts";

const NONE = "/tmp/chant-wave-no-revert-x";
const PINNED = `core.revert_dir=${NONE}\ncore.reworked_revert_dir=${NONE}\n`;

Deno.test("wrappedConfig() appends the pinned revert directories to the project's file", () => {
  const text = new TextDecoder().decode(
    wrappedConfig(
      new TextEncoder().encode("[core]\n\tengine = pg\n"),
      '/t/a "b"',
    ),
  );
  expect(text).toBe(
    '[core]\n\tengine = pg\n\n[core]\n\trevert_dir = "/t/a \\"b\\""\n\treworked_revert_dir = "/t/a \\"b\\""\n',
  );
});

Deno.test("checkedConfig() lets through what the deploy may take from sqitch's configuration", async (t) => {
  await t.step(
    "a URI target, registries and settings chant-wave overrides",
    () => {
      expect(checkedConfig(
        "core.engine=pg\ndeploy.verify=true\ndeploy.mode=all\nengine.pg.client=./wrapper.sh\n" +
          "engine.pg.registry=meta\ntarget.prod.registry=Audit\nuser.name=Ann\n" +
          PINNED,
        "db:pg://app:s3cret@db.internal/tenant_1?sslmode=require&connect_timeout=5",
        NONE,
      )).toEqual({
        uri:
          "db:pg://app:s3cret@db.internal/tenant_1?sslmode=require&connect_timeout=5",
        registries: ["sqitch", "meta", "Audit"],
        registry: "meta",
      });
    },
  );
  await t.step("a named target's URI", () => {
    expect(checkedConfig(
      `target.prod.uri=db:pg://db.internal/app\n${PINNED}`,
      "prod",
      NONE,
    )).toEqual({
      uri: "db:pg://db.internal/app",
      registries: ["sqitch"],
      registry: "sqitch",
    });
  });
  await t.step(
    "the target's registry: the target's, else the engine's, else core's",
    () => {
      const registry = (listing: string, target = "prod") =>
        checkedConfig(
          `target.prod.uri=db:pg:app\n${listing}${PINNED}`,
          target,
          NONE,
        ).registry;
      expect(registry(
        "core.registry=c\nengine.pg.registry=e\ntarget.prod.registry=t\n",
      )).toBe("t");
      expect(registry("core.registry=c\nengine.pg.registry=e\n")).toBe("e");
      expect(registry("core.registry=c\ntarget.qa.registry=q\n")).toBe("c");
      expect(registry("target.prod.registry=\n")).toBe("sqitch");
      expect(registry("target.prod.registry=t\n", "db:pg:app")).toBe(
        "sqitch",
      );
    },
  );
});

Deno.test("checkedConfig() refuses what would make the deploy run what chant-wave did not read", async (t) => {
  const cases: {
    name: string;
    listing: string;
    target?: string;
    want: string;
  }[] = [
    {
      name: "a layout of the project's own",
      listing: `core.deploy_dir=sql/deploy\n${PINNED}`,
      want:
        'sqitch\'s configuration sets "core.deploy_dir"; chant-wave runs sqitch with its default layout (sqitch.plan, deploy/ and verify/ in the project)',
    },
    {
      name: "a revert directory of an engine's, over chant-wave's",
      listing: `engine.pg.revert_dir=revert\n${PINNED}`,
      want:
        'sqitch\'s configuration sets "engine.pg.revert_dir"; chant-wave runs sqitch with its default layout (sqitch.plan, deploy/ and verify/ in the project)',
    },
    {
      name: "chant-wave's revert directory lost",
      listing: `core.revert_dir=revert\ncore.reworked_revert_dir=${NONE}\n`,
      want:
        "sqitch's configuration does not keep chant-wave's \"core.revert_dir\"; is it cut short?",
    },
    {
      name: "an included file",
      listing: `include.path=[other.conf]\n${PINNED}`,
      want:
        "sqitch's configuration includes another file (\"include.path\"); chant-wave digests the project's sqitch.conf alone",
    },
    {
      name:
        "a psql variable, whatever its case (sqitch lists it in lower case)",
      listing: `deploy.variables.singleline=on\n${PINNED}`,
      want:
        "sqitch's configuration sets the psql variable \"deploy.variables.singleline\"; chant-wave lets sqitch pass none (psql pastes a variable's value into the script, unread, and sqitch passes the name as the file writes it, which could be one of psql's own settings such as SINGLELINE)",
    },
    {
      name: "a psql variable of an engine's, a target's, or core's",
      listing: `engine.pg.variables.lower=lo_unlink\n${PINNED}`,
      want:
        'sqitch\'s configuration sets the psql variable "engine.pg.variables.lower"',
    },
    {
      name:
        "a key listed twice (a value of the runner's own file ran onto the next line)",
      listing:
        `core.pager=x\ntarget.prod.uri=db:pg:safe\n${PINNED}target.prod.uri=db:pg:app\n`,
      target: "prod",
      want:
        "sqitch's configuration lists \"target.prod.uri\" twice; does a value run onto another line (in the runner's own sqitch configuration)?",
    },
    {
      name: "a key of the deploy chant-wave does not know",
      listing: `core.sqitch_dir=x\n${PINNED}`,
      want:
        'sqitch\'s configuration sets "core.sqitch_dir", which chant-wave does not run sqitch with',
    },
    {
      name: "a target URI that sets the server's options",
      listing: PINNED,
      target: "db:pg:app?options=-c%20standard_conforming_strings%3Doff",
      want:
        'the target "db:pg:app?options=***" has the parameter "options"; chant-wave decides how the server reads the scripts, and lets a URI set only how it connects (sslmode, connect_timeout, application_name, …)',
    },
    {
      name: "a target URI whose database name starts another libpq keyword",
      listing: PINNED,
      target: "db:pg:tenant_a%09options=-cstandard_conforming_strings=off",
      want:
        'the target "db:pg:tenant_a%09options=-cstandard_conforming_strings=off" holds "\\t" in its database name; chant-wave passes libpq only letters, digits and _ . - / : , @ ~ there',
    },
    {
      name: "a named target's URI that sets the client encoding",
      listing: `target.prod.uri=db:pg:app?client_encoding=SJIS\n${PINNED}`,
      target: "prod",
      want:
        'the target "prod" (URI "db:pg:app?client_encoding=***" in sqitch\'s configuration) has the parameter "client_encoding"',
    },
    {
      name:
        "a named target's URI with a keyword in an allowed parameter's value",
      listing:
        `target.prod.uri=db:pg:app?application_name=x%09client_encoding=SJIS\n${PINNED}`,
      target: "prod",
      want:
        'the target "prod" (URI "db:pg:app?application_name=***" in sqitch\'s configuration) holds "\\t" in its parameter application_name; chant-wave passes libpq only letters, digits and _ . - / : , @ ~ there',
    },
    {
      name: "a named target with no URI",
      listing: PINNED,
      target: "prod",
      want: 'sqitch\'s configuration names no URI for the target "prod"',
    },
    {
      name: "another engine",
      listing: PINNED,
      target: "db:sqlite:app.db",
      want:
        'the target "db:sqlite:app.db" is not a PostgreSQL URI; chant-wave reads PostgreSQL scripts only (db:pg:)',
    },
    {
      name: "a target with a colon is a URI to sqitch, not a name",
      listing: `target.a:b.uri=db:pg:app\n${PINNED}`,
      target: "a:b",
      want:
        'the target "a:b" is not a PostgreSQL URI; chant-wave reads PostgreSQL scripts only (db:pg:)',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(() => checkedConfig(c.listing, c.target ?? "db:pg:app", NONE))
        .toThrow(c.want);
    });
  }
});

Deno.test("lineBreakInValue() finds a value of sqitch.conf that runs onto another line", async (t) => {
  const cases: [string, string, number | undefined][] = [
    [
      "one value a line",
      '[core]\n\tengine = pg\n\tpager = "less -R"\n',
      undefined,
    ],
    [
      "a line continued with a backslash stays one value without a line break",
      "[core]\n\tpager = less \\\n-R\n",
      undefined,
    ],
    [
      "escaped quotes and backslashes",
      '[core]\n\tpager = "a \\" \\\\"\n',
      undefined,
    ],
    [
      "a quoted value with a line break",
      '[core]\n\tpager = "x\ntarget.prod.uri=db:pg:safe"\n',
      2,
    ],
    ["a \\n escape", '[target "prod"]\n\turi = db:pg:app\\noptions=x\n', 2],
    ["a quote left open at the end", '[core]\n\tpager = "x\n', 2],
    ["a quote in a comment refuses too", '# a "quote\n[core]\n', 1],
  ];
  for (const [name, text, want] of cases) {
    await t.step(name, () => {
      expect(lineBreakInValue(new TextEncoder().encode(text))).toBe(want);
    });
  }
});
