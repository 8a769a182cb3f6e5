// A base whose spec does not parse reads the newest version before it that
// parses (src/base/valid_version.ts), through readBase on real repositories:
// each attack on the rule, and what the rules then are.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { InputError } from "../../src/errors.ts";
import { createGit } from "../../src/git/git.ts";
import { readBase } from "../../src/base/read_base.ts";
import {
  invalidBaseLines,
  newestValidVersion,
} from "../../src/base/valid_version.ts";
import { FETCH_DEPTH_HINT } from "../../src/base/resolve_base.ts";
import { type BaseSpec, baseSpecOf } from "../../src/gate/base_spec.ts";
import { wavePolicy } from "../../src/gate/policy_at_base.ts";
import {
  approvalAtBase,
  strictestRules,
} from "../../src/gate/approval_at_base.ts";
import { parseSpec } from "../../src/spec/parse_spec.ts";
import { type TempRepo, tempRepo } from "../_helpers/temp_repo.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

/** A spec whose dev wave has gate `dev`, prod gate `prod` and approval `mode`. */
function spec(prod: string, dev = "never", mode = "sealed"): string {
  return JSON.stringify(
    {
      name: "x",
      plan: ["p", "{plan}"],
      apply: ["a"],
      waves: [
        { name: "dev", gate: dev, runs: ["dev"] },
        { name: "prod", gate: prod, approval: mode, runs: ["eu"] },
      ],
    },
    null,
    2,
  );
}

/** The same spec with a typo: a stray comma, so it does not parse. */
function typo(text: string): string {
  return text.replace('"name": "x",', '"name": "x",,');
}

const STRICT = spec("always");
const LOOSE = spec("never", "never", "ledger");
const DEV = { k: 1, name: "dev", gate: "never" as const };
const PROD = { k: 2, name: "prod", gate: "never" as const };

/** A GitLab push pipeline whose commit before the push is `before`. */
function push(before: string) {
  return {
    GITLAB_CI: "true",
    CI_PIPELINE_SOURCE: "push",
    CI_COMMIT_BEFORE_SHA: before,
  };
}

/** Reads the base as a job of `repo` would, and what the rules are there. */
async function rulesOf(
  repo: TempRepo,
  env: Record<string, string> = {},
  cwd = repo.path,
) {
  const base = await readBase({
    git: createGit({ env: { PATH, HOME: repo.home } }),
    cwd,
    specPath: "waves.jsonc",
    env,
    parse: parseSpec,
  });
  const of = (wave: typeof DEV) => {
    const ref = { k: wave.k, name: wave.name, targets: [wave.name] };
    return {
      policy: wavePolicy(base.bases, wave, ref.targets).policy,
      ...strictestRules(base.bases.map((b) => approvalAtBase(b, ref))),
    };
  };
  return { base, dev: of(DEV), prod: of({ ...PROD, name: "prod" }) };
}

/** What the note line names for a base whose spec does not parse. */
function noteOf(broken: string, valid: string): string {
  return `note: waves.jsonc does not parse at ${
    broken.slice(0, 12)
  } (waves.jsonc:2:15: invalid JSONC: unexpected token ","); every rule is read at ${
    valid.slice(0, 12)
  }, the newest version before it that parses`;
}

const WAY_OUT =
  'to get out: approve each wave as printed, or push a commit on top of one whose waves.jsonc parses (an empty one will do: git commit --allow-empty -m "read the fixed spec"); its push reads the rules there';

Deno.test("readBase() reads a base whose spec does not parse at the newest version before it that parses", async (t) => {
  await t.step(
    "a typo pushed, then fixed: the fix's push reads the rules before the typo",
    async () => {
      await using repo = await tempRepo({ "waves.jsonc": STRICT });
      const valid = await repo.commit("strict");
      const broken = await repo.commit("typo", { "waves.jsonc": typo(STRICT) });
      await repo.commit("fix", { "waves.jsonc": STRICT });
      const { base, dev, prod } = await rulesOf(repo, push(broken));
      expect(base.sha).toBe(broken);
      expect(base.bases.map((b) => b.sha)).toEqual([valid]);
      expect(base.notes).toEqual([noteOf(broken, valid)]);
      // The dev wave applies without an approval, as before the typo.
      expect(dev).toMatchObject({ policy: "never" });
      expect(prod).toMatchObject({ policy: "always", mode: "sealed" });
    },
  );

  await t.step(
    "a typo commit that also loosens: its loosening is never read",
    async () => {
      await using repo = await tempRepo({ "waves.jsonc": STRICT });
      const valid = await repo.commit("strict");
      const broken = await repo.commit("typo, and prod loosened", {
        "waves.jsonc": typo(LOOSE),
      });
      await repo.commit("fix, prod still loose", { "waves.jsonc": LOOSE });
      const { base, prod } = await rulesOf(repo, push(broken));
      expect(base.bases.map((b) => b.sha)).toEqual([valid]);
      expect(prod).toMatchObject({
        policy: "always",
        mode: "sealed",
        selfApproval: true,
      });
    },
  );

  await t.step(
    "two typos in a row: both skipped, the version before them read",
    async () => {
      await using repo = await tempRepo({ "waves.jsonc": STRICT });
      const valid = await repo.commit("strict");
      await repo.commit("typo", { "waves.jsonc": typo(LOOSE) });
      const again = await repo.commit("another typo", {
        "waves.jsonc": typo(typo(LOOSE)),
      });
      await repo.commit("fix", { "waves.jsonc": LOOSE });
      const { base, prod } = await rulesOf(repo, push(again));
      expect(base.bases.map((b) => b.sha)).toEqual([valid]);
      expect(prod.policy).toBe("always");
    },
  );

  await t.step(
    "an invalid commit between a strict and a loose valid one: a run with no trusted commit before it reads the strict one",
    async () => {
      await using repo = await tempRepo({ "waves.jsonc": STRICT });
      const strict = await repo.commit("strict");
      await repo.commit("typo", { "waves.jsonc": typo(LOOSE) });
      const loose = await repo.commit("loose", { "waves.jsonc": LOOSE });
      await repo.commit("the change", { "a.txt": "a" });
      const { base, dev, prod } = await rulesOf(repo);
      expect(base.rule).toBe("chain");
      expect(base.bases.map((b) => b.sha)).toEqual([loose, strict]);
      expect(dev.policy).toBe("never");
      expect(prod).toMatchObject({ policy: "always", mode: "sealed" });
    },
  );

  await t.step(
    "the same history pushed with the invalid commit as base: the strict one",
    async () => {
      await using repo = await tempRepo({ "waves.jsonc": STRICT });
      const strict = await repo.commit("strict");
      const broken = await repo.commit("typo", { "waves.jsonc": typo(LOOSE) });
      await repo.commit("loose", { "waves.jsonc": LOOSE });
      const { base, prod } = await rulesOf(repo, push(broken));
      expect(base.bases.map((b) => b.sha)).toEqual([strict]);
      expect(prod.policy).toBe("always");
    },
  );

  await t.step(
    "a force push whose new history holds a typo that loosens: the chain reads the strict version",
    async () => {
      await using repo = await tempRepo({ "waves.jsonc": STRICT });
      const strict = await repo.commit("strict");
      const old = await repo.commit("the history pushed before", {
        "b.txt": "b",
      });
      await repo.git("reset", "-q", "--hard", strict);
      const broken = await repo.commit("rewritten: typo, loosened", {
        "waves.jsonc": typo(LOOSE),
      });
      await repo.commit("rewritten: fixed, loose", { "waves.jsonc": LOOSE });
      const { base, prod } = await rulesOf(repo, push(old));
      expect(base.rule).toBe("chain");
      expect(base.shas).toEqual([broken, strict]);
      expect(base.bases.map((b) => b.sha)).toEqual([strict]);
      expect(base.notes).toEqual([noteOf(broken, strict)]);
      expect(prod).toMatchObject({ policy: "always", mode: "sealed" });
    },
  );

  await t.step(
    "a spec deleted, then added again with a typo that loosens: the rules of no spec (every wave waits)",
    async () => {
      await using repo = await tempRepo({ "waves.jsonc": STRICT });
      await repo.commit("strict");
      await repo.git("rm", "-q", "waves.jsonc");
      const deleted = await repo.commit("deleted");
      const broken = await repo.commit("added again, with a typo", {
        "waves.jsonc": typo(LOOSE),
      });
      await repo.commit("fixed", { "waves.jsonc": LOOSE });
      const { base, dev, prod } = await rulesOf(repo, push(broken));
      expect(base.bases.map((b) => b.sha)).toEqual([deleted]);
      expect(dev.policy).toBe("always");
      expect(prod).toMatchObject({ policy: "always", mode: "ledger" });
      expect(base.notes).toEqual([
        `warning: waves.jsonc does not parse at ${
          broken.slice(0, 12)
        } (waves.jsonc:2:15: invalid JSONC: unexpected token ","), and no version before it parses (${
          deleted.slice(0, 12)
        } has no waves.jsonc): every wave needs an approval, as with no spec at base`,
        WAY_OUT,
      ]);
    },
  );

  await t.step(
    "no valid version anywhere: the strictest default, which someone outside the change can approve, and the way out",
    async () => {
      await using repo = await tempRepo({ "waves.jsonc": typo(LOOSE) });
      await repo.commit("root: a typo");
      const broken = await repo.commit("another typo", {
        "waves.jsonc": typo(typo(LOOSE)),
      });
      await repo.commit("fixed", { "waves.jsonc": LOOSE });
      const { base, dev, prod } = await rulesOf(repo, push(broken));
      expect(base.bases.map((b) => b.sha)).toEqual([broken]);
      for (const rules of [dev, prod]) {
        expect(rules).toMatchObject({
          policy: "always",
          mode: "ledger",
          required: 1,
          selfApproval: false,
          reason: `no version of the spec at or before ${
            broken.slice(0, 12)
          } parses`,
        });
      }
      expect(base.notes).toEqual([
        `warning: waves.jsonc does not parse at ${
          broken.slice(0, 12)
        } (waves.jsonc:2:15: invalid JSONC: unexpected token ","), and no version before it parses: every wave needs an approval by someone who wrote none of the change (the strictest default)`,
        WAY_OUT,
      ]);
    },
  );

  await t.step(
    "a link on the path before the spec was added: no version to read, the strictest default",
    async () => {
      await using repo = await tempRepo({ "elsewhere/waves.jsonc": LOOSE });
      await Deno.symlink("elsewhere", join(repo.path, "deploy"));
      await repo.commit("deploy is a link to a loose spec");
      await Deno.remove(join(repo.path, "deploy"));
      const broken = await repo.commit(
        "deploy is a directory, its spec a typo",
        {
          "deploy/waves.jsonc": typo(STRICT),
        },
      );
      await repo.commit("fixed", { "deploy/waves.jsonc": STRICT });
      const base = await readBase({
        git: createGit({ env: { PATH, HOME: repo.home } }),
        cwd: repo.path,
        specPath: "deploy/waves.jsonc",
        env: push(broken),
        parse: parseSpec,
      });
      expect(base.bases.map((b) => [b.sha, b.spec.status])).toEqual([
        [broken, "unparsable"],
      ]);
      expect(base.notes[0]).toMatch(/the strictest default\)$/);
    },
  );

  await t.step(
    "the base stands on the last trusted decision's version: read once",
    async () => {
      await using repo = await tempRepo({ "waves.jsonc": STRICT });
      const valid = await repo.commit("strict, decided");
      const broken = await repo.commit("typo", { "waves.jsonc": typo(STRICT) });
      await repo.commit("fix", { "waves.jsonc": STRICT });
      const base = await readBase({
        git: createGit({ env: { PATH, HOME: repo.home } }),
        cwd: repo.path,
        specPath: "waves.jsonc",
        env: push(broken),
        parse: parseSpec,
        decisions: () => Promise.resolve([valid]),
      });
      expect(base.shas).toEqual([broken, valid]);
      expect(base.bases.map((b) => b.sha)).toEqual([valid]);
    },
  );
});

Deno.test("newestValidVersion() walks the spec's history, and a shallow clone is no root", async (t) => {
  await using repo = await tempRepo({ "waves.jsonc": STRICT });
  const valid = await repo.commit("strict");
  await repo.commit("unrelated", { "a.txt": "a" });
  const broken = await repo.commit("typo", { "waves.jsonc": typo(STRICT) });
  const specs = new Map<string, BaseSpec>();
  const git = createGit({ env: { PATH, HOME: repo.home } });
  const versionAt = (top: string) => async (sha: string) => {
    if (!specs.has(sha)) {
      const text = await git.run(["show", `${sha}:waves.jsonc`], { cwd: top })
        .catch(() => undefined);
      specs.set(sha, baseSpecOf(text, "waves.jsonc", parseSpec));
    }
    return specs.get(sha)!;
  };
  await t.step("the commit where the valid version was made", async () => {
    expect(
      await newestValidVersion(
        git,
        repo.path,
        broken,
        "waves.jsonc",
        versionAt(repo.path),
      ),
    ).toEqual({ status: "found", sha: valid });
  });
  await t.step(
    "a shallow clone that lacks it: exit 2, with the hint",
    async () => {
      const clone = join(repo.root, "clone");
      await repo.git(
        "clone",
        "-q",
        "--depth",
        "1",
        `file://${repo.path}`,
        clone,
      );
      const error = await newestValidVersion(
        git,
        clone,
        broken,
        "waves.jsonc",
        versionAt(clone),
      ).then(() => undefined, (e) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).message).toBe(
        `the spec at ${
          broken.slice(0, 12)
        } does not parse, and the versions before it are not in this checkout: it is a shallow clone`,
      );
      expect((error as InputError).details).toEqual([FETCH_DEPTH_HINT]);
    },
  );
});

Deno.test("invalidBaseLines() says nothing of bases that parse", () => {
  expect(
    invalidBaseLines([{
      sha: "a".repeat(40),
      spec: baseSpecOf(STRICT, "waves.jsonc", parseSpec),
    }], "waves.jsonc"),
  ).toEqual([]);
});
