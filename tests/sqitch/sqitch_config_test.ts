// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  checkedConfig,
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
    "a URI target, variables, a registry and settings chant-wave overrides",
    () => {
      expect(checkedConfig(
        "core.engine=pg\ndeploy.verify=true\ndeploy.mode=all\nengine.pg.client=./wrapper.sh\n" +
          "engine.pg.registry=meta\ndeploy.variables.schema=app\nuser.name=Ann\n" +
          PINNED,
        "db:pg://db.internal/tenant_1?sslmode=require&connect_timeout=5",
        NONE,
      )).toBe("db:pg://db.internal/tenant_1?sslmode=require&connect_timeout=5");
    },
  );
  await t.step("a named target's URI", () => {
    expect(checkedConfig(
      `target.prod.uri=db:pg://db.internal/app\n${PINNED}`,
      "prod",
      NONE,
    )).toBe("db:pg://db.internal/app");
  });
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
      name: "a variable named as psql's own settings are",
      listing: `deploy.variables.SINGLELINE=on\n${PINNED}`,
      want:
        "sqitch's configuration sets the variable \"deploy.variables.SINGLELINE\"; chant-wave passes only lower-case names (psql's own settings are upper case)",
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
        "sqitch's configuration gives the target's URI the parameter \"options\"; chant-wave decides how the server reads the scripts",
    },
    {
      name: "a named target's URI that sets the client encoding",
      listing: `target.prod.uri=db:pg:app?client_encoding=SJIS\n${PINNED}`,
      target: "prod",
      want:
        "sqitch's configuration gives the target's URI the parameter \"client_encoding\"; chant-wave decides how the server reads the scripts",
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
        'sqitch\'s configuration connects with "db:sqlite:app.db"; chant-wave reads PostgreSQL scripts only (db:pg:)',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      expect(() => checkedConfig(c.listing, c.target ?? "db:pg:app", NONE))
        .toThrow(c.want);
    });
  }
});
