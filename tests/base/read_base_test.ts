// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join, resolve } from "node:path";
import { InputError } from "../../src/errors.ts";
import { createGit, type Git } from "../../src/git/git.ts";
import { mayForbidSelfApproval, readBase } from "../../src/base/read_base.ts";
import { baseSpecOf } from "../../src/gate/base_spec.ts";
import { FETCH_DEPTH_HINT } from "../../src/base/resolve_base.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { tempRepo } from "../_helpers/temp_repo.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

function gitFor(home: string): Git {
  return createGit({ env: { PATH, HOME: home } });
}

/** A valid spec text whose wave `prod` has `gate`, and top-level `extra`. */
function spec(gate: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      name: "x",
      plan: ["p", "{plan}"],
      apply: ["a"],
      ...extra,
      waves: [{ name: "dev", gate: "never", runs: ["dev"] }, {
        name: "prod",
        gate,
        runs: ["eu"],
      }],
    },
    null,
    2,
  );
}

type Env = Record<string, string | undefined>;

/** A GitLab push pipeline. */
const PUSH = { GITLAB_CI: "true", CI_PIPELINE_SOURCE: "push" };
const INSTEAD =
  "; reading every version of the rules since the last recorded decision instead";

function reader(home: string, cwd: string, specPath = "waves.jsonc") {
  return (options: { flag?: string; env?: Env } = {}) =>
    readBase({
      git: gitFor(home),
      cwd,
      specPath,
      ...(options.flag === undefined ? {} : { flag: options.flag }),
      env: options.env ?? {},
      parse: parseSpec,
    });
}

async function inputError(promise: Promise<unknown>): Promise<InputError> {
  const error = await promise.then(() => undefined, (e) => e);
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

Deno.test("readBase() chooses the base by the rules of §4.4", async (t) => {
  await using repo = await tempRepo({ "waves.jsonc": spec("always") });
  const first = await repo.commit("first");
  const second = await repo.commit("second", {
    "waves.jsonc": spec("always", { base: first }),
  });
  await repo.commit("third: loosen", {
    "waves.jsonc": spec("never", { base: "HEAD" }),
  });
  const head = await repo.commit("fourth: anything", { "other.txt": "x" });
  const read = reader(repo.home, repo.path);

  await t.step(
    "outside CI, HEAD^1's spec says base HEAD: ignored, the chain rule reads",
    async () => {
      const got = await read();
      expect(got.rule).toBe("chain");
      expect(got.shas).toContain(second);
      expect(got.warnings).toEqual([
        `the spec's base "HEAD" is relative to HEAD, which the change chose, and no commit before this change is trusted: ignored; reading every version of the rules since the last recorded decision instead`,
      ]);
    },
  );
  await t.step("--base wins over everything", async () => {
    const got = await read({ flag: "HEAD~3" });
    expect(got).toMatchObject({
      sha: first,
      rule: "flag",
      reason: "--base HEAD~3",
      head,
    });
  });
  await t.step(
    "CI's commit before the push is where the spec's base is read",
    async () => {
      const got = await read({
        env: { ...PUSH, CI_COMMIT_BEFORE_SHA: second },
      });
      expect(got).toMatchObject({
        sha: first,
        rule: "spec",
        reason: `the spec's base "${first}" (read at ${second.slice(0, 12)})`,
      });
      expect(got.spec.status).toBe("parsed");
    },
  );
  await t.step(
    "the commit before the push, when its spec names no base",
    async () => {
      const got = await read({
        env: { ...PUSH, CI_COMMIT_BEFORE_SHA: first },
      });
      expect(got).toMatchObject({
        sha: first,
        rule: "push",
        reason: "the commit before the push",
        warnings: [],
      });
    },
  );
  await t.step(
    "only HEAD^1's spec counts, not the working copy's",
    async () => {
      await repo.write("waves.jsonc", spec("never", { base: "HEAD" }));
      const got = await read({
        env: { ...PUSH, CI_COMMIT_BEFORE_SHA: first },
      });
      expect(got.sha).toBe(first);
    },
  );
});

Deno.test("readBase() judges a push of several commits as one change", async (t) => {
  await using repo = await tempRepo({ "waves.jsonc": spec("always") });
  const before = await repo.commit("before the push");
  const older = await repo.commit("older", { "a.txt": "a" });
  const loosened = await repo.commit("push 1: set base and loosen", {
    "waves.jsonc": spec("never", { base: older }),
  });
  await repo.commit("push 2: anything", { "b.txt": "b" });
  const read = reader(repo.home, repo.path);
  const event = join(repo.root, "event.json");
  await Deno.writeTextFile(event, JSON.stringify({ before, after: "x" }));

  await t.step("GitLab: the base is the commit before both", async () => {
    const got = await read({
      env: { ...PUSH, CI_COMMIT_BEFORE_SHA: before },
    });
    expect(got).toMatchObject({ sha: before, rule: "push" });
  });
  await t.step("GitHub: before of the push event", async () => {
    const got = await read({
      env: {
        GITHUB_ACTIONS: "true",
        GITHUB_EVENT_NAME: "push",
        GITHUB_EVENT_PATH: event,
      },
    });
    expect(got).toMatchObject({ sha: before, rule: "push" });
  });
  await t.step("Forgejo: the same event file", async () => {
    const got = await read({
      env: {
        FORGEJO_ACTIONS: "true",
        GITHUB_EVENT_NAME: "push",
        GITHUB_EVENT_PATH: event,
      },
    });
    expect(got).toMatchObject({ sha: before, rule: "push" });
  });
  await t.step(
    "outside CI: every version since the root, and the base each names",
    async () => {
      const got = await read();
      expect(got.rule).toBe("chain");
      expect(got.shas).toEqual([loosened, before, older]);
      expect(got.bases.map((b) => b.sha)).toEqual(got.shas);
    },
  );
});

Deno.test("readBase() reads by the chain rule when CI's before cannot be used", async (t) => {
  await using repo = await tempRepo({ "waves.jsonc": spec("always") });
  const base = await repo.commit("base");
  const head = await repo.commit("head", { "a.txt": "a" });
  await repo.git("checkout", "-q", "-b", "side", base);
  const side = await repo.commit("elsewhere", { "b.txt": "b" });
  await repo.git("checkout", "-q", head);
  const read = reader(repo.home, repo.path);
  const cases = [
    {
      name: "all zeros: a new branch",
      before: "0".repeat(40),
      warning:
        `$CI_COMMIT_BEFORE_SHA is all zeros: the push created the branch, so there is no commit before it${INSTEAD}`,
      why: "a new branch",
    },
    {
      name: "not an ancestor: a force push",
      before: side,
      warning: `$CI_COMMIT_BEFORE_SHA ${
        side.slice(0, 12)
      } is not an ancestor of HEAD (a force push)${INSTEAD}`,
      why: "a force push",
    },
    {
      name: "not in this checkout",
      before: "1".repeat(40),
      warning:
        `$CI_COMMIT_BEFORE_SHA 111111111111 is not in this checkout (a force push, or a shallow clone)${INSTEAD}`,
      why: "the commit before the push is not here",
    },
    {
      name: "HEAD itself",
      before: head,
      warning: `$CI_COMMIT_BEFORE_SHA ${
        head.slice(0, 12)
      } is not an ancestor of HEAD (a force push)${INSTEAD}`,
      why: "a force push",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const got = await read({
        env: { ...PUSH, CI_COMMIT_BEFORE_SHA: c.before },
      });
      expect(got).toMatchObject({
        sha: base,
        shas: [base],
        rule: "chain",
        reason:
          `no trusted commit before this change (${c.why}); the strictest of 1 version of waves.jsonc at ${
            base.slice(0, 12)
          }`,
        warnings: [c.warning],
      });
    });
  }
  await t.step("a pull-request event is not a push", async () => {
    const event = join(repo.root, "pr.json");
    await Deno.writeTextFile(event, JSON.stringify({ before: side }));
    const got = await read({
      env: {
        GITHUB_ACTIONS: "true",
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_EVENT_PATH: event,
      },
    });
    expect(got).toMatchObject({ sha: base, rule: "chain", warnings: [] });
    expect(got.reason).toMatch(
      /^no trusted commit before this change \(pull_request\)/,
    );
  });
});

Deno.test("readBase() says what is missing when there is no base", async (t) => {
  await using repo = await tempRepo({ "waves.jsonc": spec("never") });
  await repo.commit("only commit");
  await t.step("a root commit: pass --base HEAD", async () => {
    const error = await inputError(reader(repo.home, repo.path)());
    expect(error.message).toBe(
      "HEAD has no parent commit, so there is no base to read the policy at",
    );
    expect(error.details).toEqual([
      "hint: pass --base HEAD to read the policy from the committed spec itself (for a first run only)",
    ]);
  });
  await t.step("--base HEAD reads the committed spec", async () => {
    const got = await reader(repo.home, repo.path)({ flag: "HEAD" });
    expect(got.rule).toBe("flag");
  });
  await t.step("an unknown --base ref", async () => {
    const error = await inputError(
      reader(repo.home, repo.path)({ flag: "no-such-branch" }),
    );
    expect(error.message).toBe(
      '--base "no-such-branch" names no commit in this repository',
    );
  });
  await repo.commit("second", { "a.txt": "a" });
  const clone = join(repo.root, "clone");
  await repo.git("clone", "-q", "--depth", "1", `file://${repo.path}`, clone);
  await t.step("a shallow clone: the fetch-depth hint", async () => {
    const error = await inputError(reader(repo.home, clone)());
    expect(error.message).toBe(
      "HEAD^1 is not in this checkout: it is a shallow clone, so there is no base to read the policy at",
    );
    expect(error.details).toEqual([FETCH_DEPTH_HINT]);
  });
});

Deno.test("readBase() takes the spec's path from the top level", async (t) => {
  await using repo = await tempRepo({
    "deploy/waves.jsonc": spec("on-destructive"),
    "other/keep.txt": "",
  });
  const base = await repo.commit("base");
  await repo.commit("loosen", { "deploy/waves.jsonc": spec("never") });
  await Deno.symlink(repo.path, join(repo.root, "link"));
  const cases = [
    { name: "spec in a subdirectory", cwd: ".", spec: "deploy/waves.jsonc" },
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
      const got = await reader(repo.home, resolve(repo.path, c.cwd), c.spec)();
      expect(got.sha).toBe(base);
      expect(got.spec.status).toBe("parsed");
      if (got.spec.status === "parsed") {
        expect(got.spec.spec.waves[1].gate).toBe("on-destructive");
      }
    });
  }
});

Deno.test("mayForbidSelfApproval() says when the change's people may be asked for", () => {
  const at = (text: string | undefined) => ({
    sha: "0".repeat(40),
    spec: baseSpecOf(text, "waves.json", parseSpec),
  });
  const spec = (top: object, wave: object = {}) =>
    JSON.stringify({
      name: "x",
      plan: ["p", "{plan}"],
      apply: ["a"],
      ...top,
      waves: [{ name: "dev", runs: ["dev"] }, {
        name: "prod",
        runs: ["p"],
        ...wave,
      }],
    });
  expect(mayForbidSelfApproval(at(spec({})))).toBe(false);
  expect(mayForbidSelfApproval(at(undefined))).toBe(false);
  expect(mayForbidSelfApproval(at("{ not json"))).toBe(true);
  expect(
    mayForbidSelfApproval(at(spec({ approvers: { selfApproval: false } }))),
  )
    .toBe(true);
  expect(
    mayForbidSelfApproval(at(spec({}, { approvers: { selfApproval: false } }))),
  ).toBe(true);
});
