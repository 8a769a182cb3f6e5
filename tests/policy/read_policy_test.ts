// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join, resolve } from "node:path";
import { InputError } from "../../src/errors.ts";
import { createGit, type Git } from "../../src/git/git.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import {
  FETCH_DEPTH_HINT,
  readPolicyAtBase,
} from "../../src/policy/read_policy.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";
import { invalidMessage, standInParse } from "./_stand_in_parse.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

function gitFor(home: string): Git {
  return createGit({ env: { PATH, HOME: home } });
}

/** A spec whose waves `dev` and `prod` have the given raw gate fields. */
function spec(prodGate?: string, name = "prod"): string {
  const gate = prodGate === undefined ? "" : `, "gate": "${prodGate}"`;
  return `{\n  "name": "x", // jsonc\n  "waves": [\n    { "name": "dev", "gate": "never" },\n    { "name": "${name}"${gate} },\n  ],\n}\n`;
}

/** The working copy after the base loosens every gate to `never`. */
const LOOSENED = spec("never");

Deno.test("readPolicyAtBase() reads every row of the §4.4 table at base", async (t) => {
  const cases: {
    name: string;
    base: Record<string, string>;
    want: (sha12: string) => { policy: string; source: string; reason: string };
  }[] = [
    {
      name: "wave found with gate",
      base: { "waves.jsonc": spec("on-destructive") },
      want: (s) => ({
        policy: "on-destructive",
        source: "base",
        reason: `read at ${s}`,
      }),
    },
    {
      name: "wave found without gate",
      base: { "waves.jsonc": spec() },
      want: (s) => ({
        policy: "always",
        source: "base",
        reason: `read at ${s}; wave "prod" sets no gate`,
      }),
    },
    {
      name: "no such wave",
      base: { "waves.jsonc": spec("never", "production") },
      want: (s) => ({
        policy: "always",
        source: "absent-at-base",
        reason: `wave "prod" is not in the spec at ${s}`,
      }),
    },
    {
      name: "file absent at base",
      base: { "README.md": "no spec yet" },
      want: (s) => ({
        policy: "always",
        source: "absent-at-base",
        reason: `the spec is not in ${s}`,
      }),
    },
    {
      name: "file unparsable at base",
      base: { "waves.jsonc": '{ "name": "x", "waves": [ } // broken' },
      want: (s) => ({
        policy: "always",
        source: "absent-at-base",
        reason:
          `the spec at ${s} does not parse: Cannot parse JSONC: unexpected token "}" in JSONC at position 26`,
      }),
    },
    {
      name: "file parsable but invalid at base",
      base: { "waves.jsonc": spec("never").replace('"x"', '"INVALID"') },
      want: (s) => ({
        policy: "always",
        source: "absent-at-base",
        reason: `the spec at ${s} does not parse: ${
          invalidMessage("waves.jsonc").split("\n")[0]
        }`,
      }),
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await using repo = await tempRepo(c.base);
      const base = await repo.commit("base");
      await repo.commit("loosen", { "waves.jsonc": LOOSENED });
      const got = await readPolicyAtBase({
        git: gitFor(repo.home),
        cwd: repo.path,
        specPath: "waves.jsonc",
        base: "HEAD^1",
        waveName: "prod",
        parse: standInParse,
      });
      expect(got).toEqual({
        ...c.want(base.slice(0, 12)),
        baseSha: base,
        specPathFromTop: "waves.jsonc",
      });
    });
  }
});

Deno.test("readPolicyAtBase() ignores the working copy loosening the gate", async (t) => {
  await using repo = await tempRepo({ "waves.jsonc": spec("always") });
  const base = await repo.commit("base");
  await repo.write("waves.jsonc", LOOSENED);
  const read = (rev: string) =>
    readPolicyAtBase({
      git: gitFor(repo.home),
      cwd: repo.path,
      specPath: "waves.jsonc",
      base: rev,
      waveName: "prod",
      parse: standInParse,
    });
  await t.step("uncommitted, base HEAD", async () => {
    expect((await read("HEAD")).policy).toBe("always");
  });
  await t.step("committed, base HEAD^1", async () => {
    await repo.commit("loosen");
    const got = await read("HEAD^1");
    expect(got.policy).toBe("always");
    expect(got.baseSha).toBe(base);
  });
  await t.step("a base given as a full sha", async () => {
    expect((await read(base)).policy).toBe("always");
  });
});

Deno.test("readPolicyAtBase() takes the spec's path from the top level", async (t) => {
  await using repo = await tempRepo({
    "deploy/waves.jsonc": spec("on-destructive"),
    "other/keep.txt": "",
  });
  const base = await repo.commit("base");
  await repo.commit("loosen", { "deploy/waves.jsonc": LOOSENED });
  await Deno.symlink(repo.path, join(repo.root, "link"));
  const cases = [
    {
      name: "spec in a subdirectory",
      cwd: repo.path,
      spec: "deploy/waves.jsonc",
    },
    { name: "cwd in that subdirectory", cwd: "deploy", spec: "waves.jsonc" },
    { name: "cwd in a sibling", cwd: "other", spec: "../deploy/waves.jsonc" },
    {
      name: "an absolute spec path",
      cwd: "other",
      spec: join(repo.path, "deploy", "waves.jsonc"),
    },
    {
      name: "cwd reached through a symlink",
      cwd: join(repo.root, "link", "deploy"),
      spec: "waves.jsonc",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const got = await readPolicyAtBase({
        git: gitFor(repo.home),
        cwd: resolve(repo.path, c.cwd),
        specPath: c.spec,
        base: "HEAD^1",
        waveName: "prod",
        parse: standInParse,
      });
      expect(got).toEqual({
        policy: "on-destructive",
        source: "base",
        reason: `read at ${base.slice(0, 12)}`,
        baseSha: base,
        specPathFromTop: "deploy/waves.jsonc",
      });
    });
  }
  await t.step("a spec that is a symlink is read at its target", async () => {
    await Deno.symlink("deploy/waves.jsonc", join(repo.path, "waves.jsonc"));
    const got = await readPolicyAtBase({
      git: gitFor(repo.home),
      cwd: repo.path,
      specPath: "waves.jsonc",
      base: "HEAD^1",
      waveName: "prod",
      parse: standInParse,
    });
    expect(got.specPathFromTop).toBe("deploy/waves.jsonc");
    expect(got.policy).toBe("on-destructive");
  });
});

async function inputError(promise: Promise<unknown>): Promise<InputError> {
  const error = await promise.then(() => undefined, (e) => e);
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

Deno.test("readPolicyAtBase() fails with an InputError on a checkout that lacks the base", async (t) => {
  await using repo = await tempRepo({ "waves.jsonc": spec("never") });
  const base = await repo.commit("base");
  await repo.commit("loosen", { "waves.jsonc": LOOSENED });
  const clone = join(repo.root, "clone");
  await repo.git("clone", "-q", "--depth", "1", `file://${repo.path}`, clone);
  const read = (rev: string) =>
    readPolicyAtBase({
      git: gitFor(repo.home),
      cwd: clone,
      specPath: "waves.jsonc",
      base: rev,
      waveName: "prod",
      parse: standInParse,
    });
  await t.step("HEAD^1 in a shallow clone", async () => {
    const error = await inputError(read("HEAD^1"));
    expect(error.message).toBe(
      'cannot read the policy of "waves.jsonc" at base "HEAD^1": the checkout lacks that commit',
    );
    expect(error.details).toEqual([FETCH_DEPTH_HINT]);
    expect(error.exitCode).toBe(2);
  });
  await t.step("a full sha the clone never fetched", async () => {
    const error = await inputError(read(base));
    expect(error.message).toBe(
      `cannot read the policy of "waves.jsonc" at base "${base}": the checkout lacks that commit`,
    );
    expect(error.details).toEqual([
      'hint: fetch the full history: `fetch-depth: 0` on GitHub and Forgejo, `GIT_DEPTH: "0"` on GitLab',
    ]);
  });
});

Deno.test("readPolicyAtBase() fails with an InputError outside a repository", async (t) => {
  await using repo = await tempRepo();
  await t.step("cwd not in a repository", async () => {
    const error = await inputError(readPolicyAtBase({
      git: gitFor(repo.home),
      cwd: repo.root,
      specPath: "waves.jsonc",
      base: "HEAD^1",
      waveName: "prod",
      parse: standInParse,
    }));
    expect(error.message).toBe(
      `cannot read the policy of "waves.jsonc" at base: "${repo.root}" is not in a git repository`,
    );
  });
  await t.step("a spec outside the repository", async () => {
    await repo.commit("one");
    await repo.commit("two");
    const error = await inputError(readPolicyAtBase({
      git: gitFor(repo.home),
      cwd: repo.path,
      specPath: "../home/waves.jsonc",
      base: "HEAD^1",
      waveName: "prod",
      parse: standInParse,
    }));
    expect(error.message).toBe(
      `cannot read the policy of "../home/waves.jsonc" at base: the spec is outside the repository "${repo.path}"`,
    );
  });
});

Deno.test("readPolicyAtBase() works with the real parseSpec", async (t) => {
  await using repo = await tempRepo();
  const valid = (gate: string) =>
    `{ "name": "x", "plan": ["p", "{plan}"], "apply": ["a", "{plan}"],\n` +
    `  "waves": [{ "name": "prod", "runs": ["eu"]${gate} }] }\n`;
  const read = (base: string) =>
    readPolicyAtBase({
      git: gitFor(repo.home),
      cwd: repo.path,
      specPath: "waves.jsonc",
      base,
      waveName: "prod",
      parse: parseSpec,
    });
  const cases = [
    {
      name: "gate set",
      text: valid(', "gate": "never"'),
      want: (s: string) => ({
        policy: "never",
        source: "base",
        reason: `read at ${s}`,
      }),
    },
    {
      name: "gate unset (the parser fills the default)",
      text: valid(""),
      want: (s: string) => ({
        policy: "always",
        source: "base",
        reason: `read at ${s}; wave "prod" sets no gate`,
      }),
    },
    {
      name: "an invalid gate",
      text: valid(', "gate": "sometimes"'),
      want: (s: string) => ({
        policy: "always",
        source: "absent-at-base",
        reason: new RegExp(
          `^the spec at ${s} does not parse: waves\\.jsonc:2:\\d+: wave 1 "prod" gate: `,
        ),
      }),
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const base = await repo.commit(c.name, { "waves.jsonc": c.text });
      const { reason, ...rest } = c.want(base.slice(0, 12));
      const got = await read(base);
      expect(got).toMatchObject(rest);
      if (reason instanceof RegExp) expect(got.reason).toMatch(reason);
      else expect(got.reason).toBe(reason);
    });
  }
});
