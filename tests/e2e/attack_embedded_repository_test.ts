// End to end through the binary: a fresh-eyed attack (round 59) ran a job
// from a folder of the checkout (`cd infra && chant-wave run …`, as a
// monorepo's pipeline does) after the change made that folder a git
// directory: `HEAD`, `objects/`, `refs/` and a `config` with
// `core.worktree = ..` and a remote of its own. git finds that folder first,
// so the ledger's fetch and push went to the change's copy (a spent sealed
// approval applied again) and the change's `uploadpack` ran inside
// chant-wave's own git. The same folder, bare, chose the ledger of an
// approver who ran `approve` there; and a job run inside a submodule read its
// spec, base and ledger from the repository the change named. Each is now
// refused (exit 2) before anything is read, run, recorded or applied; and a
// folder where a plan file goes is a one-line error, not an internal one.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { type BinaryResult, runBinary } from "../_helpers/binary.ts";
import { errorLines, specOf } from "../_helpers/rollout.ts";
import { type TempRepo, tempRepo } from "../_helpers/temp_repo.ts";

const SPEC = JSON.stringify(
  specOf([{ name: "prod", gate: "never", runs: ["eu"] }], { ledger: "git" }),
);

/** A repository with `infra/waves.json` and a bare `origin` holding `main`. */
async function monorepo(): Promise<{ repo: TempRepo; remote: string }> {
  const repo = await tempRepo({
    "infra/waves.json": SPEC,
    ".gitignore": ".chant/\napplied.log\n",
  });
  await repo.commit("base: the rollout spec");
  const remote = `${repo.root}/remote.git`;
  await repo.git("init", "--bare", "-q", remote);
  await repo.git("remote", "add", "origin", remote);
  await repo.git("push", "-q", "origin", "HEAD:refs/heads/main");
  return { repo, remote };
}

/** The refs under `refs/heads/` of a bare repository. */
function heads(repo: TempRepo, gitDir: string): Promise<string> {
  return repo.git("--git-dir", gitDir, "for-each-ref", "refs/heads/");
}

const FOLDER_REFUSED =
  /^error: the repository git finds here is "[^"]*\/infra", a folder of the checkout "[^"]*" outside its \.git, so the change's files would be the repository chant-wave's git reads and writes \(its settings, the ledger's remote, its refs\); run chant-wave where git finds the clone's own \.git$/;

/** One line saying the folder is refused, exit 2. */
function refused(result: BinaryResult): void {
  expect(errorLines(result.stderr)).toHaveLength(1);
  expect(errorLines(result.stderr)[0]).toMatch(FOLDER_REFUSED);
  expect(result.code).toBe(2);
}

Deno.test("a folder of the change made a git directory is refused, run from it or approved in it", async (t) => {
  const { repo, remote } = await monorepo();
  await using _ = repo;
  const fake = `${repo.root}/fake.git`;
  await repo.git("clone", "-q", "--bare", remote, fake);
  const ran = `${repo.root}/upload-pack-ran`;
  /** The files that make `infra` a git directory, its `[core]` ending in `core`. */
  const gitDirFiles = (core: string) => ({
    "infra/HEAD": "ref: refs/heads/main\n",
    "infra/objects/.keep": "",
    "infra/refs/.keep": "",
    "infra/up.sh": `#!/bin/sh\necho ran > ${ran}\nexec git-upload-pack "$@"\n`,
    "infra/config": `[core]\n\trepositoryformatversion = 0\n\t${core}\n` +
      `[remote "origin"]\n\turl = ${fake}\n\tuploadpack = sh infra/up.sh\n`,
  });
  const cwd = `${repo.path}/infra`;
  const run = () =>
    runBinary(["run", "--spec", "waves.json", "--wave", "1"], { cwd });
  const approve = () =>
    runBinary([
      "approve",
      "tf",
      "tf-wave-1",
      "--plan",
      `sha256:${"0".repeat(64)}`,
      "--by",
      "mallory",
      "--ledger",
      "git",
    ], { cwd });
  const untouched = async () => {
    expect(await Deno.readTextFile(`${cwd}/applied.log`).catch(() => ""))
      .toBe("");
    expect(await Deno.readTextFile(ran).catch(() => "")).toBe("");
    expect(await heads(repo, remote)).not.toContain("chant/ledger");
    expect(await heads(repo, fake)).not.toContain("chant/ledger");
  };

  await t.step(
    "with core.worktree = .. and a remote of its own: run and approve stop (exit 2), git runs nothing of the change",
    async () => {
      await repo.commit(
        "the change: infra is a git directory",
        gitDirFiles("worktree = .."),
      );
      refused(await run());
      refused(await approve());
      await untouched();
    },
  );

  await t.step(
    "bare (no work tree): approve in it stops (exit 2), its remote untouched",
    async () => {
      await repo.commit(
        "the change: infra is a bare git directory",
        gitDirFiles("bare = true"),
      );
      refused(await approve());
      await untouched();
    },
  );
});

Deno.test("a job run from a folder of the checkout keeps its git ledger on the clone's own origin", async () => {
  const { repo, remote } = await monorepo();
  await using _ = repo;
  await repo.commit("head: the change", { "infra/notes.txt": "a change\n" });
  const cwd = `${repo.path}/infra`;
  const result = await runBinary(
    ["run", "--spec", "waves.json", "--wave", "1"],
    { cwd },
  );
  expect(errorLines(result.stderr)).toEqual([]);
  expect(result.code).toBe(0);
  expect(await Deno.readTextFile(`${cwd}/applied.log`)).toBe("eu\n");
  expect(await heads(repo, remote)).toContain("refs/heads/chant/ledger");
});

Deno.test("a job whose folder is reached through a link the repository tracks stops (exit 2); a link of the runner's stands", async (t) => {
  const { repo, remote } = await monorepo();
  await using _ = repo;
  const run = (cwd: string, pwd: string) =>
    runBinary(["run", "--spec", "waves.json", "--wave", "1"], {
      cwd,
      env: { PWD: pwd },
    });

  await t.step(
    "the runner's own link to the checkout, outside it: it stands",
    async () => {
      await repo.commit("head: the change", {
        "infra/notes.txt": "a change\n",
      });
      await Deno.symlink(repo.path, `${repo.root}/workspace`);
      const result = await run(
        `${repo.path}/infra`,
        `${repo.root}/workspace/infra`,
      );
      expect(errorLines(result.stderr)).toEqual([]);
      expect(result.code).toBe(0);
    },
  );

  await t.step(
    "a link the change commits to another repository: refused, nothing read there",
    async () => {
      const elsewhere = `${repo.root}/elsewhere`;
      await repo.gitIn(repo.root, "init", "-q", "-b", "main", elsewhere);
      await Deno.writeTextFile(`${elsewhere}/waves.json`, SPEC);
      for (const message of ["base", "head"]) {
        await repo.gitIn(elsewhere, "add", "-A");
        await repo.gitIn(
          elsewhere,
          "commit",
          "-q",
          "--allow-empty",
          "-m",
          message,
        );
      }
      await repo.git("rm", "-q", "-r", "infra");
      await Deno.remove(`${repo.path}/infra`, { recursive: true });
      await Deno.symlink("../elsewhere", `${repo.path}/infra`);
      await repo.commit("the change: infra is a link");
      const result = await run(`${repo.path}/infra`, `${repo.path}/infra`);
      expect(errorLines(result.stderr)).toEqual([
        `error: chant-wave runs in "${repo.path}/infra", reached through "${repo.path}/infra", a symbolic link the repository "${repo.path}" tracks: the change chooses where it leads (another repository, its spec and its ledger); run chant-wave from a folder of the checkout that is no link`,
      ]);
      expect(result.code).toBe(2);
      expect(
        await Deno.readTextFile(`${elsewhere}/applied.log`).catch(() => ""),
      )
        .toBe("");
      expect(await heads(repo, remote)).toContain("refs/heads/chant/ledger");
    },
  );
});

Deno.test("a job run inside a submodule stops (exit 2): the change chooses the submodule", async () => {
  const { repo, remote } = await monorepo();
  await using _ = repo;
  const other = `${repo.root}/other`;
  await repo.gitIn(repo.root, "init", "-q", "-b", "main", other);
  await Deno.writeTextFile(`${other}/waves.json`, SPEC);
  await repo.gitIn(other, "add", "-A");
  await repo.gitIn(other, "commit", "-q", "-m", "the change's spec");
  await repo.git("rm", "-q", "-r", "infra");
  await repo.git(
    "-c",
    "protocol.file.allow=always",
    "submodule",
    "add",
    "-q",
    other,
    "infra",
  );
  await repo.commit("the change: infra is a submodule");
  const cwd = `${repo.path}/infra`;
  const result = await runBinary(
    ["run", "--spec", "waves.json", "--wave", "1"],
    { cwd },
  );
  expect(errorLines(result.stderr)).toHaveLength(1);
  expect(errorLines(result.stderr)[0]).toMatch(
    /^error: "[^"]*\/infra" is a submodule of "[^"]*": the change chooses a submodule's commit and where it comes from, so the spec, the base and the ledger read there would be the change's; run chant-wave in the superproject's work tree$/,
  );
  expect(result.code).toBe(2);
  expect(await Deno.readTextFile(`${cwd}/applied.log`).catch(() => ""))
    .toBe("");
  expect(await heads(repo, remote)).not.toContain("chant/ledger");
});

Deno.test("a folder where a run's plan file goes stops the job with one line (exit 2)", async () => {
  await using repo = await tempRepo({
    "waves.json": JSON.stringify(
      specOf([{ name: "prod", gate: "never", runs: ["eu"] }]),
    ),
    ".gitignore": "applied.log\n",
  });
  await repo.commit("base: the rollout spec");
  await repo.commit("head: the change");
  const run = () =>
    runBinary(["run", "--spec", "waves.json", "--wave", "1"], {
      cwd: repo.path,
    });
  expect((await run()).code).toBe(0);
  const dir = `${repo.path}/.chant/waves/tf/wave-1`;
  const [plan] = [...Deno.readDirSync(dir)]
    .map((entry) => entry.name)
    .filter((name) => name.endsWith(".plan.json"));
  await Deno.remove(`${dir}/${plan}`);
  await Deno.mkdir(`${dir}/${plan}/inside`, { recursive: true });
  await Deno.remove(`${repo.path}/applied.log`);
  const result = await run();
  expect(errorLines(result.stderr)).toEqual([
    `error: ".chant/waves/tf/wave-1/${plan}" is a folder where chant-wave writes a run's plan file; .chant/ is chant-wave's own: remove the folder`,
  ]);
  expect(result.code).toBe(2);
  expect(await Deno.readTextFile(`${repo.path}/applied.log`).catch(() => ""))
    .toBe("");
});
