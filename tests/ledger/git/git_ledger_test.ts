// @ts-types="../../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { join } from "node:path";
import { realClock } from "../../../src/clock.ts";
import { InputError, OutcomeError } from "../../../src/errors.ts";
import { createGit } from "../../../src/git/git.ts";
import { setDigest } from "../../../src/digest/set_digest.ts";
import { ShapeError } from "../../../src/input/shape_error.ts";
import { gitLedger } from "../../../src/ledger/git/git_ledger.ts";
import { planSetFileName } from "../../../src/gate/plan_set_file.ts";
import { recordFileName } from "../../../src/gate/record_name.ts";
import {
  type ApprovalRecord,
  approvalRecord,
  formatRecord,
  newRecord,
  newStamp,
  pendingRecord,
} from "../../../src/gate/records.ts";
import { pushLog, unretriedRejections } from "../../_helpers/push_log.ts";
import { tempRepo } from "../../_helpers/temp_repo.ts";
import { approvalNoted, ledgerWorld } from "../git_ledger_fixture.ts";
import { pending } from "../_records.ts";
import { fileURLToPath } from "node:url";

const D = "sha256:" + "d".repeat(64);
const notes = (records: unknown[]) =>
  records.map((r) =>
    (r as ApprovalRecord).note ?? (r as { kind: string }).kind
  );

Deno.test("gitLedger() shares records between clones in branch order", async () => {
  await using world = await ledgerWorld();
  const a = world.open(await world.clone("a"));
  const b = world.open(await world.clone("b"));
  await a.ledger.write(pendingRecord(
    {
      name: "tf",
      gate: "tf-wave-2",
      planDigest: D,
      description: "2 to add",
      members: 1,
      base: "0".repeat(40),
    },
    3_600_000,
    newStamp(realClock),
  ));
  const seen = await b.ledger.readGate("tf", "tf-wave-2");
  expect(notes(seen.records)).toEqual(["pending"]);
  await b.ledger.write(approvalNoted("approved by b"));
  // An older timestamp that reaches the branch later reads later.
  await a.ledger.write(approvalRecord(
    { name: "tf", gate: "tf-wave-2", planDigest: D, by: "x", note: "older" },
    { id: "0".repeat(32), now: Date.UTC(2020, 0, 1) },
  ));
  const read = await a.ledger.readGate("tf", "tf-wave-2");
  expect(notes(read.records)).toEqual(["pending", "approved by b", "older"]);
  expect(read.problems).toEqual([]);
  expect(await b.ledger.listGates()).toEqual([{
    name: "tf",
    gate: "tf-wave-2",
  }]);
  expect(await b.ledger.readGate("tf", "other-gate")).toEqual({
    records: [],
    problems: [],
  });
  expect(a.logs).toEqual([]);
  const remoteLog = await world.repo.gitIn(
    world.remote,
    "log",
    "--format=%an <%ae> %s",
    "chant/ledger",
  );
  expect(remoteLog.split("\n")).toEqual([
    "chant-wave <chant-wave@localhost> chant-wave: approval tf/tf-wave-2",
    "chant-wave <chant-wave@localhost> chant-wave: approval tf/tf-wave-2",
    "chant-wave <chant-wave@localhost> chant-wave: pending tf/tf-wave-2",
  ]);
});

Deno.test("gitLedger() lets exactly one of racing claims win each plan", async () => {
  await using world = await ledgerWorld();
  await using log = await pushLog();
  // A stand-in git first on PATH sees the losing pushes rejected and retried.
  const git = createGit({
    env: { ...world.repo.env, PATH: `${log.bin}:${world.repo.env.PATH}` },
  });
  const ledgers = [
    await world.clone("a"),
    await world.clone("b"),
    await world.clone("c"),
  ]
    .map((cwd) => world.open(cwd, { git }).ledger);
  const plans = ["eu", "us", "ap"].map((target, i) => ({
    target,
    planDigest: "sha256:" + String(i).repeat(64),
    attempt: 1,
  }));
  for (let round = 0; round < 3; round++) {
    const approval = approvalNoted(`round ${round}`);
    await ledgers[0].write(approval);
    const after = await Promise.all(
      ledgers.map((ledger, i) =>
        ledger.claimRuns(newRecord("claim", {
          name: "tf",
          gate: "tf-wave-2",
          approvalId: approval.id,
          decisionId: `dec-${round}-${i}`,
          runs: plans,
        }, newStamp(realClock)))
      ),
    );
    for (const plan of plans) {
      const winners = after.map((claims) => {
        const standing = claims.standing(plan);
        return standing.kind === "unsettled" ? standing.decisionId : "?";
      });
      // Every job sees the same single winner of each plan.
      expect(new Set(winners).size).toBe(1);
      expect(winners[0]).toMatch(new RegExp(`^dec-${round}-[0-2]$`));
    }
  }
  expect(unretriedRejections(await log.pushes())).toBe("");
});

Deno.test("gitLedger() leaves the work tree, index and HEAD untouched", async () => {
  await using world = await ledgerWorld();
  const { repo } = world;
  await repo.write("staged.txt", "staged\n");
  await repo.git("add", "staged.txt");
  await repo.write("README.md", "changed, not staged\n");
  await repo.write("untracked.txt", "untracked\n");
  // A stale index.lock does not matter: the ledger never takes it.
  await Deno.writeTextFile(join(repo.path, ".git/index.lock"), "");
  const snapshot = async () => ({
    index: await Deno.readFile(join(repo.path, ".git/index")),
    head: await repo.git("rev-parse", "HEAD"),
    symbolic: await repo.git("symbolic-ref", "HEAD"),
    status: await repo.git("status", "--porcelain", "--untracked-files=all"),
    readme: await Deno.readTextFile(join(repo.path, "README.md")),
  });
  const before = await snapshot();
  const { ledger } = world.open(repo.path);
  await Promise.all([1, 2, 3].map((i) => ledger.write(approvalNoted(`${i}`))));
  await ledger.write(approvalNoted("4"));
  expect((await ledger.readGate("tf", "tf-wave-2")).records.length).toBe(4);
  await Deno.remove(join(repo.path, ".git/index.lock"));
  expect(await snapshot()).toEqual(before);
});

Deno.test("gitLedger() keeps records local without a remote and says so once", async () => {
  await using repo = await tempRepo({ "README.md": "x\n" });
  await repo.commit("base");
  const logs: string[] = [];
  const ledger = gitLedger({
    git: createGit({ env: repo.env }),
    cwd: repo.path,
    clock: realClock,
    log: (line) => logs.push(line),
  });
  await ledger.write(approvalNoted("one"));
  await ledger.write(approvalNoted("two"));
  expect(notes((await ledger.readGate("tf", "tf-wave-2")).records)).toEqual([
    "one",
    "two",
  ]);
  expect(logs).toEqual([
    'git ledger: the repository has no remote; records stay on the local branch chant/ledger ("chant-wave ledger push" sends them once it has one)',
  ]);
  expect(ledger.describe()).toBe("git ledger chant/ledger (local, no remote)");
  expect(await repo.git("rev-list", "--count", "chant/ledger")).toBe("2");
  await expect(ledger.push()).rejects.toThrow(
    '"ledger push" needs a remote: the repository has none',
  );

  await pushOnceThereIsARemote(repo);
});

/** Once the repository gets a remote, `push()` sends the local records. */
async function pushOnceThereIsARemote(
  repo: Awaited<ReturnType<typeof tempRepo>>,
) {
  const remote = join(repo.root, "remote.git");
  await repo.gitIn(repo.root, "init", "-q", "--bare", remote);
  await repo.git("remote", "add", "origin", remote);
  const git = createGit({ env: repo.env });
  const shared = gitLedger({
    git,
    cwd: repo.path,
    clock: realClock,
    log: () => {},
  });
  expect((await shared.push()).message).toBe(
    'pushed 2 records to chant/ledger of "origin"',
  );
  expect((await shared.push()).message).toBe(
    'chant/ledger is up to date with "origin"',
  );
  await repo.gitIn(repo.root, "clone", "-q", remote, "other");
  const other = gitLedger({
    git,
    cwd: join(repo.root, "other"),
    clock: realClock,
    log: () => {},
  });
  expect((await other.pull()).message).toMatch(
    /^pulled chant\/ledger from "origin" at [0-9a-f]{12}$/,
  );
  expect(notes((await other.readGate("tf", "tf-wave-2")).records)).toEqual([
    "one",
    "two",
  ]);
}

Deno.test("gitLedger() reports malformed records without failing", async () => {
  await using repo = await tempRepo({ "README.md": "x\n" });
  await repo.commit("base");
  const git = createGit({ env: repo.env });
  const ledger = gitLedger({
    git,
    cwd: repo.path,
    clock: realClock,
    log: () => {},
  });
  await ledger.write(approvalNoted("good"));
  const bad = await repo.git("hash-object", "-w", "README.md");
  // Add gates/tf/tf-wave-2/bad.json (README's text, not JSON) on the branch.
  const tip = await repo.git("rev-parse", "chant/ledger");
  await repo.gitIn(
    repo.path,
    "read-tree",
    "--index-output=" + join(repo.root, "idx"),
    tip,
  );
  const env = `GIT_INDEX_FILE=${join(repo.root, "idx")}`;
  await runWithEnv(repo, env, [
    "update-index",
    "--add",
    "--cacheinfo",
    `100644,${bad},gates/tf/tf-wave-2/bad.json`,
  ]);
  const newTree = await runWithEnv(repo, env, ["write-tree"]);
  const commit = await repo.git("commit-tree", newTree, "-p", tip, "-m", "bad");
  await repo.git("update-ref", "refs/heads/chant/ledger", commit);
  const read = await ledger.readGate("tf", "tf-wave-2");
  expect(notes(read.records)).toEqual(["good"]);
  expect(read.problems).toHaveLength(1);
  expect(read.problems[0]).toMatch(
    /^chant\/ledger:gates\/tf\/tf-wave-2\/bad\.json: record is not valid JSON/,
  );
});

async function runWithEnv(
  repo: Awaited<ReturnType<typeof tempRepo>>,
  assignment: string,
  args: string[],
): Promise<string> {
  const [name, value] = assignment.split("=");
  const out = await new Deno.Command("git", {
    args,
    cwd: repo.path,
    env: { ...repo.env, [name]: value },
    clearEnv: true,
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("gitLedger() fails with one clear line", async (t) => {
  await t.step("a stale lock on the branch", async () => {
    await using repo = await tempRepo({ "README.md": "x\n" });
    await repo.commit("base");
    const ledger = gitLedger({
      git: createGit({ env: repo.env }),
      cwd: repo.path,
      clock: realClock,
      log: () => {},
    });
    await ledger.write(approvalNoted("one"));
    const lock = join(repo.path, ".git/refs/heads/chant/ledger.lock");
    await Deno.writeTextFile(lock, "");
    const old = new Date(Date.now() - 3_600_000);
    await Deno.utime(lock, old, old);
    const error = await ledger.write(approvalNoted("two")).catch((e) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(
      /^cannot update the ledger branch chant\/ledger: the lock file ".*\/\.git\/refs\/heads\/chant\/ledger\.lock" is in the way \(\d+s old\); if no git process is running in this repository, remove it and run again$/,
    );
    // An hour old, however long the test took.
    expect(Number(error.message.match(/\((\d+)s old\)/)[1]))
      .toBeGreaterThanOrEqual(3_600);
  });

  await t.step(
    "other writers win every race for the whole budget: exit 1",
    async () => {
      await using world = await ledgerWorld();
      const clone = await world.clone("late");
      await world.open(world.repo.path).ledger.write(approvalNoted("first"));
      const late = world.open(clone, {
        budgetMs: 0,
        minAttempts: 1,
        random: (n) => new Uint8Array(n).fill(255),
      }).ledger;
      // Its remote-tracking ref predates the first record: the push loses.
      const error = await late.write(approvalNoted("late")).catch((e) => e);
      expect(error).toBeInstanceOf(OutcomeError);
      expect(error.exitCode).toBe(1);
      expect(error.message).toMatch(
        /^cannot record in the ledger branch chant\/ledger of "origin" within 0s \(1 attempt\): other writers kept pushing first \(.*\); run it again$/,
      );
    },
  );

  await t.step("a remote that refuses the push", async () => {
    await using world = await ledgerWorld();
    const hook = join(world.remote, "hooks/pre-receive");
    await Deno.writeTextFile(
      hook,
      "#!/bin/sh\necho 'You are not allowed to push code to protected branches on this project.' >&2\nexit 1\n",
    );
    await Deno.chmod(hook, 0o755);
    const { ledger } = world.open(world.repo.path);
    const error = await ledger.write(approvalNoted("x")).catch((e) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(
      'cannot push the ledger branch chant/ledger to "origin": the remote refused it ' +
        "(pre-receive hook declined: You are not allowed to push code to protected " +
        'branches on this project.); allow the job to push the branch chant/ledger (GitHub and Forgejo: "permissions: contents: write"; GitLab: a token with write_repository), and exempt it from branch protection',
    );
    expect(error.message).not.toContain("\n");
    // Nothing was recorded, locally either.
    await expect(world.repo.git("rev-parse", "--verify", "-q", "chant/ledger"))
      .rejects.toThrow();
    expect((await ledger.readGate("tf", "tf-wave-2")).records).toEqual([]);
  });

  await t.step("a remote that does not exist", async () => {
    await using world = await ledgerWorld();
    await world.repo.git(
      "remote",
      "set-url",
      "origin",
      // Digits of an HTTP status in the path say nothing of permission.
      join(world.repo.root, "gone-403.git"),
    );
    const { ledger } = world.open(world.repo.path);
    const error = await ledger.readGate("tf", "tf-wave-2").catch((e) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(
      /^cannot fetch the ledger branch chant\/ledger from "origin": '.*gone-403\.git' does not appear to be a git repository; .*; check the remote's URL and that the job may read it$/,
    );
    const pushError = await ledger.write(approvalNoted("x")).catch((e) => e);
    expect(pushError.message).toMatch(
      /^cannot push the ledger branch chant\/ledger to "origin": .*gone-403\.git' does not appear to be a git repository; .*check the remote's URL and that the job may push to it$/,
    );
  });

  await t.step("a remote the repository lacks", async () => {
    await using world = await ledgerWorld();
    const { ledger } = world.open(world.repo.path, { remote: "upstream" });
    await expect(ledger.readGate("tf", "g")).rejects.toThrow(
      'ledger "git:upstream": the repository has no remote "upstream"; its remotes: origin',
    );
    expect(() => world.open(world.repo.path, { remote: "-x" })).toThrow(
      'ledger "git:-x": not a valid remote name',
    );
  });

  await t.step("not a repository", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const ledger = gitLedger({
        git: createGit({ env: { PATH: Deno.env.get("PATH") } }),
        cwd: dir,
        clock: realClock,
        log: () => {},
      });
      await expect(ledger.listGates()).rejects.toThrow(
        /^cannot open the git ledger: ".*" is not in a git repository; run chant-wave in the checkout, or use a directory ledger$/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("gitLedger() still reads an approval an older chant-wave adds to a numbered branch, first (any revoke ends it)", async () => {
  await using world = await ledgerWorld();
  const a = world.open(await world.clone("a"));
  await a.ledger.write(approvalNoted("numbered"));
  const old = await world.clone("old");
  await world.repo.gitIn(old, "checkout", "-q", "chant/ledger");
  const record = approvalRecord(
    {
      name: "tf",
      gate: "tf-wave-2",
      planDigest: D,
      by: "x",
      note: "unnumbered",
    },
    { id: "9".repeat(32), now: Date.UTC(2020, 0, 1) },
  );
  await Deno.writeTextFile(
    join(old, `gates/tf/tf-wave-2/${recordFileName(record)}`),
    formatRecord(record),
  );
  await world.repo.gitIn(old, "add", "-A");
  await world.repo.gitIn(old, "commit", "-q", "-m", "old writer");
  await world.repo.gitIn(old, "push", "-q", "origin", "chant/ledger");
  for (const live of [false, true]) {
    expect(
      notes((await a.ledger.readGate("tf", "tf-wave-2", { live })).records),
    ).toEqual(["unnumbered", "numbered"]);
  }
});

Deno.test("gitLedger() reads a decision's records from the gate's newest revoke on", async () => {
  await using world = await ledgerWorld();
  const a = world.open(await world.clone("a"));
  await a.ledger.write(approvalNoted("before"));
  await a.ledger.write(
    newRecord(
      "expired",
      { name: "tf", gate: "tf-wave-2" },
      newStamp(realClock),
    ),
  );
  await a.ledger.write(approvalNoted("after"));
  const live = await a.ledger.readGate("tf", "tf-wave-2", { live: true });
  expect(live.problems).toEqual([]);
  expect(notes(live.records)).toEqual(["expired", "after"]);
  expect(notes((await a.ledger.readGate("tf", "tf-wave-2")).records))
    .toEqual(["before", "expired", "after"]);
});

Deno.test("gitLedger() reads only the kinds asked for, by file name, and the whole gate after", async () => {
  await using world = await ledgerWorld();
  const a = world.open(await world.clone("a"));
  await a.ledger.write(approvalNoted("approved"));
  await a.ledger.write(pending("w1", 0));
  const b = world.open(await world.clone("b"));
  const some = await b.ledger.readGate("tf", "tf-wave-2", {
    kinds: ["pending"],
  });
  expect(some.problems).toEqual([]);
  expect(some.records.map((r) => r.kind)).toEqual(["pending"]);
  // The part read is not taken for the whole gate.
  const whole = await b.ledger.readGate("tf", "tf-wave-2");
  expect(whole.records.map((r) => r.kind).sort()).toEqual([
    "approval",
    "pending",
  ]);
});

Deno.test("gitLedger() reports a plan set on the branch it cannot read, never reads it as none", async () => {
  await using world = await ledgerWorld();
  const a = world.open(await world.clone("a"));
  const pairs = [{ target: "eu", planDigest: D }];
  const digest = setDigest(pairs);
  await a.ledger.writePlanSet("tf", "tf-wave-2", digest, pairs);
  const old = await world.clone("old");
  await world.repo.gitIn(old, "checkout", "-q", "chant/ledger");
  const set = `gates/tf/tf-wave-2/sets/${planSetFileName(digest)}`;
  await Deno.writeTextFile(join(old, set), "{ broken");
  await world.repo.gitIn(old, "commit", "-q", "-am", "break the set");
  await world.repo.gitIn(old, "push", "-q", "origin", "chant/ledger");
  const reader = world.open(await world.clone("reader"));
  const error = await reader.ledger.readPlanSet("tf", "tf-wave-2", digest)
    .then(() => undefined, (e) => e);
  expect(error).toBeInstanceOf(ShapeError);
  expect((error as ShapeError).message).toMatch(
    new RegExp(`^chant/ledger:${set}: is not JSON: `),
  );
  expect(await reader.ledger.readPlanSet("tf", "tf-wave-2", D))
    .toBeUndefined();
});

Deno.test("gitLedger({ fetchOnce }) reads one command's snapshot, and its write still lands on the newest tip", async () => {
  await using world = await ledgerWorld();
  const a = world.open(await world.clone("a"), { fetchOnce: true });
  const b = world.open(await world.clone("b"));
  await b.ledger.write(approvalNoted("first"));
  expect(notes((await a.ledger.readGate("tf", "tf-wave-2")).records))
    .toEqual(["first"]);
  await b.ledger.write(approvalNoted("landed since"));
  // The snapshot: what reached the remote since the first read is not read.
  expect(notes((await a.ledger.readGate("tf", "tf-wave-2")).records))
    .toEqual(["first"]);
  // A write pushes on the remote's newest tip (its lost race fetches), so a
  // read after it has everything that landed before it.
  await a.ledger.write(approvalNoted("mine"));
  expect(notes((await a.ledger.readGate("tf", "tf-wave-2")).records))
    .toEqual(["first", "landed since", "mine"]);
});

const WRITER = fileURLToPath(
  new URL("../../fixtures/git_ledger/write_records.ts", import.meta.url),
);
const PROCESSES = 8;
const CLONES = 4;
const RECORDS = 25;
const ROUNDS = 2;

/** Runs the writers with `bin` (a stand-in git) first on their PATH. */
async function runWriters(
  clones: string[],
  round: number,
  bin: string,
): Promise<void> {
  const startAt = Date.now() + 1500;
  const outputs = await Promise.all(
    Array.from(
      { length: PROCESSES },
      (_, w) =>
        new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--allow-all",
            WRITER,
            clones[w % CLONES],
            `r${round}w${w}`,
            String(RECORDS),
            String(startAt),
          ],
          env: { PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` },
          stdout: "piped",
          stderr: "piped",
        }).output(),
    ),
  );
  for (const out of outputs) {
    expect({ code: out.code, stderr: new TextDecoder().decode(out.stderr) })
      .toEqual({ code: 0, stderr: "" });
  }
}

Deno.test("gitLedger() loses no record with 8 processes on 4 clones writing at once", async (t) => {
  await using world = await ledgerWorld();
  const clones: string[] = [];
  for (let c = 0; c < CLONES; c++) clones.push(await world.clone(`c${c}`));
  const { ledger } = world.open(world.repo.path);
  for (let round = 0; round < ROUNDS; round++) {
    await t.step(`round ${round + 1}`, async () => {
      await using log = await pushLog();
      await runWriters(clones, round, log.bin);
      // The writers raced: pushes were rejected, and retried until they landed.
      expect(unretriedRejections(await log.pushes())).toBe("");
      const { records, problems } = await ledger.readGate("tf", "tf-wave-2");
      expect(problems).toEqual([]);
      const notes = records.map((r) => (r as ApprovalRecord).note!);
      const expected = Array.from(
        { length: round + 1 },
        (_, r) =>
          Array.from(
            { length: PROCESSES },
            (_, w) =>
              Array.from({ length: RECORDS }, (_, i) => `r${r}w${w}-${i}`),
          ),
      ).flat(2);
      expect(notes.length).toBe(expected.length);
      expect(new Set(notes).size).toBe(notes.length);
      expect([...notes].sort()).toEqual([...expected].sort());
      const files = await world.repo.gitIn(
        world.remote,
        "ls-tree",
        "--name-only",
        "chant/ledger:gates/tf/tf-wave-2",
      );
      // The records, and beside them the folder of their sequence numbers.
      expect(files.split("\n").filter((f) => f !== "order").length).toBe(
        expected.length,
      );
      const numbers = (await world.repo.gitIn(
        world.remote,
        "ls-tree",
        "-r",
        "--name-only",
        "chant/ledger:gates/tf/tf-wave-2/order",
      )).split("\n").filter((n) => n.includes("/"));
      expect(new Set(numbers.map((n) => n.split("/")[1].slice(0, 12))).size)
        .toBe(expected.length);
    });
  }
});
