// @ts-types="../../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import {
  dirLedger,
  LedgerWriteError,
} from "../../../src/ledger/dir/dir_ledger.ts";
import { counterRandomBytes } from "../../../src/gate/random_hex.ts";
import { formatRecord } from "../../../src/gate/records.ts";
import { InputError } from "../../../src/errors.ts";
import { ShapeError } from "../../../src/input/shape_error.ts";
import { setDigest } from "../../../src/digest/set_digest.ts";
import {
  approval,
  claim,
  D,
  expired,
  GATE,
  NAME,
  pending,
} from "../_records.ts";

/** A temporary directory removed at the end of the scope. */
async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "chant-ledger-" });
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

async function namesIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test("dirLedger() writes records and reads them back oldest first", async () => {
  await using dir = await tempDir();
  const ledger = dirLedger(dir.path, {
    random: counterRandomBytes(),
    readChunk: 2,
  });
  const written = [
    claim("p1", 3, "a1", "dec-1", [{ target: "eu", planDigest: D }]),
    pending("w1", 0),
    expired("e1", 4),
    approval("a1", 1),
  ];
  for (const record of written) await ledger.write(record);
  const got = await ledger.readGate(NAME, GATE);
  expect(got.problems).toEqual([]);
  expect(got.records.map((r) => r.id)).toEqual(["w1", "a1", "p1", "e1"]);
  expect(got.records[1]).toEqual(approval("a1", 1));
  const files = await namesIn(`${dir.path}/gates/${NAME}/${GATE}`);
  expect(files).toEqual([
    "20261130T090000.000Z-pending-w1.json",
    "20261130T090100.000Z-approval-a1.json",
    "20261130T090300.000Z-claim-p1.json",
    "20261130T090400.000Z-expired-e1.json",
  ]);
  const text = await Deno.readTextFile(
    `${dir.path}/gates/${NAME}/${GATE}/${files[1]}`,
  );
  expect(text).toBe(formatRecord(approval("a1", 1)));
});

Deno.test("dirLedger() reads only the kinds asked for, by file name", async () => {
  await using dir = await tempDir();
  const ledger = dirLedger(dir.path, { random: counterRandomBytes() });
  const written = [
    pending("w1", 0),
    approval("a1", 1),
    claim("p1", 3, "a1", "dec-1", [{ target: "eu", planDigest: D }]),
    expired("e1", 4),
    pending("w2", 5),
  ];
  for (const record of written) await ledger.write(record);
  const got = await ledger.readGate(NAME, GATE, { kinds: ["pending"] });
  expect(got.problems).toEqual([]);
  expect(got.records.map((r) => r.id)).toEqual(["w1", "w2"]);
  const claims = await ledger.readGate(NAME, GATE, { kinds: ["claim"] });
  expect(claims.records.map((r) => r.id)).toEqual(["p1"]);
  // With live, every kind from the newest revoke on, as without kinds.
  const live = await ledger.readGate(NAME, GATE, {
    live: true,
    kinds: ["pending"],
  });
  expect(live.records.map((r) => r.id)).toEqual(["e1", "w2"]);
});

Deno.test("dirLedger() reads a missing directory as no records", async () => {
  await using dir = await tempDir();
  const ledger = dirLedger(`${dir.path}/nothing/here`);
  expect(await ledger.readGate(NAME, GATE)).toEqual({
    records: [],
    problems: [],
  });
  expect(await ledger.listGates()).toEqual([]);
  expect(await ledger.listGates(NAME)).toEqual([]);
});

Deno.test("dirLedger() skips temporary and non-record files", async () => {
  await using dir = await tempDir();
  const ledger = dirLedger(dir.path);
  await ledger.write(approval("a1", 1));
  const gateDir = `${dir.path}/gates/${NAME}/${GATE}`;
  const half = formatRecord(approval("a2", 2)).slice(0, 20);
  await Deno.writeTextFile(`${gateDir}/.x-approval-a2.json.0011.tmp`, half);
  await Deno.writeTextFile(`${gateDir}/x-approval-a3.json.tmp`, half);
  await Deno.writeTextFile(`${gateDir}/.hidden.json`, half);
  await Deno.writeTextFile(`${gateDir}/README.md`, "notes");
  const got = await ledger.readGate(NAME, GATE);
  expect(got.problems).toEqual([]);
  expect(got.records.map((r) => r.id)).toEqual(["a1"]);
});

Deno.test("dirLedger() reports malformed records in problems and keeps the rest", async () => {
  await using dir = await tempDir();
  const ledger = dirLedger(dir.path);
  await ledger.write(approval("a1", 1));
  const gateDir = `${dir.path}/gates/${NAME}/${GATE}`;
  await Deno.writeTextFile(`${gateDir}/b-broken.json`, "{");
  await Deno.writeTextFile(
    `${gateDir}/c-nodigest.json`,
    JSON.stringify({ ...approval("a2", 2), planDigest: undefined }),
  );
  await Deno.writeTextFile(
    `${gateDir}/d-moved.json`,
    JSON.stringify({ ...approval("a3", 3), gate: "tf-wave-9" }),
  );
  await Deno.mkdir(`${gateDir}/e-dir.json`);
  const got = await ledger.readGate(NAME, GATE);
  expect(got.records.map((r) => r.id)).toEqual(["a1"]);
  expect(got.problems).toHaveLength(4);
  expect(got.problems[0]).toMatch(
    /^.*\/b-broken\.json: record is not valid JSON: /,
  );
  expect(got.problems[1]).toBe(
    `${gateDir}/c-nodigest.json: has no "planDigest"`,
  );
  expect(got.problems[2]).toBe(
    `${gateDir}/d-moved.json: record is for gate "tf-wave-9" of "tf", ` +
      `not gate "${GATE}" of "${NAME}"`,
  );
  expect(got.problems[3]).toMatch(
    /\/e-dir\.json: is not a regular file; it does not count$/,
  );
});

Deno.test("dirLedger() keeps a pending fact whose run locator is malformed, without it, and says so", async () => {
  await using dir = await tempDir();
  const ledger = dirLedger(dir.path);
  const gateDir = `${dir.path}/gates/${NAME}/${GATE}`;
  await Deno.mkdir(gateDir, { recursive: true });
  await Deno.writeTextFile(
    `${gateDir}/a-pending.json`,
    JSON.stringify({
      ...pending("w1", 1),
      locator: { forge: "gitlab", apiUrl: "file:///etc/passwd" },
    }),
  );
  const got = await ledger.readGate(NAME, GATE);
  expect(got.records).toEqual([pending("w1", 1)]);
  expect(got.problems).toEqual([
    `${gateDir}/a-pending.json: run locator: "apiUrl" must be an http(s) URL without credentials, query or fragment; it is dropped`,
  ]);
});

Deno.test("dirLedger() reads only the one gate's directory", async () => {
  await using dir = await tempDir();
  const ledger = dirLedger(dir.path);
  await ledger.write(approval("a1", 1));
  const other = { ...approval("o1", 2), gate: "tf-wave-3" };
  await ledger.write(other);
  await ledger.write({ ...approval("n1", 2), name: "other" });
  // A broken record next door must not show up as this gate's problem.
  await Deno.writeTextFile(
    `${dir.path}/gates/${NAME}/tf-wave-3/broken.json`,
    "{",
  );
  await Deno.writeTextFile(`${dir.path}/gates/${NAME}/stray.json`, "{");
  const got = await ledger.readGate(NAME, GATE);
  expect(got).toEqual({ records: [approval("a1", 1)], problems: [] });
  expect((await ledger.readGate(NAME, "tf-wave-3")).records).toEqual([other]);
  expect(await ledger.listGates()).toEqual([
    { name: "other", gate: GATE },
    { name: NAME, gate: GATE },
    { name: NAME, gate: "tf-wave-3" },
  ]);
  expect(await ledger.listGates(NAME)).toEqual([
    { name: NAME, gate: GATE },
    { name: NAME, gate: "tf-wave-3" },
  ]);
});

Deno.test("dirLedger() never overwrites a record and leaves no temporary file", async () => {
  await using dir = await tempDir();
  const ledger = dirLedger(dir.path);
  await ledger.write(approval("a1", 1, undefined, "ann"));
  await expect(ledger.write(approval("a1", 1, undefined, "mallory"))).rejects
    .toThrow("already exists");
  const got = await ledger.readGate(NAME, GATE);
  expect(got.records).toEqual([approval("a1", 1, undefined, "ann")]);
  expect(await namesIn(`${dir.path}/gates/${NAME}/${GATE}`)).toEqual([
    "20261130T090100.000Z-approval-a1.json",
  ]);
});

Deno.test("dirLedger() refuses names and gates that are not path segments", async (t) => {
  await using dir = await tempDir();
  const ledger = dirLedger(dir.path);
  for (const gate of ["../x", "a/b", ".hidden", "", "-x"]) {
    await t.step(JSON.stringify(gate), async () => {
      await expect(ledger.readGate(NAME, gate)).rejects.toThrow(InputError);
      await expect(ledger.write({ ...approval("a1", 1), gate })).rejects
        .toThrow(`invalid gate ${JSON.stringify(gate)}`);
    });
  }
  await expect(ledger.readGate("../n", GATE)).rejects.toThrow(
    'invalid name "../n": a ledger name is letters, digits, "_", "." and "-", ' +
      'not starting with "." or "-"',
  );
  expect(await namesIn(dir.path)).toEqual([]);
});

Deno.test("dirLedger() refuses to write a malformed record", async () => {
  await using dir = await tempDir();
  const ledger = dirLedger(dir.path);
  await expect(
    ledger.write({ ...approval("a1", 1), planDigest: "sha256:abc" }),
  ).rejects.toThrow('"planDigest" is not sha256:<64 lowercase hex>');
  expect((await ledger.readGate(NAME, GATE)).records).toEqual([]);
});

Deno.test("dirLedger() names the record when a write fails", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/file`, "");
  const ledger = dirLedger(`${dir.path}/file`);
  const error = await ledger.write(approval("a1", 1)).then(
    () => undefined,
    (e) => e,
  );
  expect(error).toBeInstanceOf(LedgerWriteError);
  expect(error.message).toMatch(
    /^cannot write record ".*\/file\/gates\/tf\/tf-wave-2\/20261130T090100\.000Z-approval-a1\.json": /,
  );
});

Deno.test("dirLedger() describes itself by its root", () => {
  expect(dirLedger("/tmp/l").describe()).toBe("directory ledger /tmp/l");
  expect(dirLedger().root).toBe(".chant/ledger");
});

Deno.test("dirLedger() loses no record when 8 processes write 25 each at once", async () => {
  await using dir = await tempDir();
  const writers = 8;
  const each = 25;
  const script = new URL(
    "../../fixtures/ledger/write_records.ts",
    import.meta.url,
  ).pathname;
  const startAt = Date.now() + 1500; // all processes start writing together
  const children = Array.from(
    { length: writers },
    (_, w) =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--allow-all",
          script,
          dir.path,
          String(w),
          String(each),
          String(startAt),
        ],
        stdout: "piped",
        stderr: "piped",
      }).output(),
  );
  const outputs = await Promise.all(children);
  for (const output of outputs) {
    if (output.code !== 0) {
      throw new Error(new TextDecoder().decode(output.stderr));
    }
  }
  const got = await dirLedger(dir.path).readGate(NAME, GATE);
  expect(got.problems).toEqual([]);
  expect(got.records).toHaveLength(writers * each);
  const notes = got.records.map((r) => r.kind === "approval" ? r.note : "");
  const want = Array.from(
    { length: writers },
    (_, w) => Array.from({ length: each }, (_, i) => `${w}-${i}`),
  ).flat();
  expect(new Set(notes).size).toBe(writers * each);
  expect([...notes].sort()).toEqual(want.sort());
  expect(new Set(got.records.map((r) => r.id)).size).toBe(writers * each);
  const files = await namesIn(`${dir.path}/gates/${NAME}/${GATE}`);
  expect(files).toHaveLength(writers * each);
  expect(files.filter((f) => f.startsWith(".") || f.endsWith(".tmp")))
    .toEqual([]);
});

Deno.test("dirLedger() lets exactly one of racing claims win each plan, and keeps plan sets", async (t) => {
  await using dir = await tempDir();
  const ledger = dirLedger(dir.path);
  const plans = ["eu", "us"].map((target, i) => ({
    target,
    planDigest: "sha256:" + String(i).repeat(64),
    attempt: 1,
  }));
  await ledger.write(approval("a1", 1));
  await ledger.write(approval("a2", 1));
  await t.step("racing claims", async () => {
    const after = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        ledger.claimRuns(claim(`c${i}`, 1, "a1", `dec-${i}`, plans))
      ),
    );
    for (const plan of plans) {
      const winners = new Set(after.map((claims) => {
        const standing = claims.standing(plan);
        return standing.kind === "unsettled" ? standing.decisionId : "?";
      }));
      expect(winners.size).toBe(1);
    }
    const { records, problems } = await ledger.readGate(NAME, GATE);
    expect(problems).toEqual([]);
    expect(records.filter((r) => r.kind === "claim")).toHaveLength(2);
  });

  await t.step(
    "two attempts of one decision: one wins, named by its attempt",
    async () => {
      const plan = { ...plans[0], planDigest: "sha256:" + "7".repeat(64) };
      const after = await Promise.all(
        ["att-1", "att-2"].map((attempt, i) =>
          ledger.claimRuns(
            claim(`d${i}`, 2, "a2", "dec-same", [plan], attempt),
          )
        ),
      );
      const won = after.map((claims) => {
        const standing = claims.standing(plan);
        return standing.kind === "unsettled" ? standing.attemptId : "?";
      });
      expect(new Set(won).size).toBe(1);
      expect(["att-1", "att-2"]).toContain(won[0]);
    },
  );
  await t.step("a plan set is read back only for its digest", async () => {
    const pairs = plans.map(({ target, planDigest }) => ({
      target,
      planDigest,
    }));
    const digest = setDigest(pairs);
    await ledger.writePlanSet(NAME, GATE, digest, pairs);
    await ledger.writePlanSet(NAME, GATE, digest, pairs);
    expect(await ledger.readPlanSet(NAME, GATE, digest)).toEqual(pairs);
    expect(await ledger.readPlanSet(NAME, GATE, D)).toBeUndefined();
  });
  await t.step("no claim under an approval a revoke ended", async () => {
    await ledger.write(expired("r1", 3));
    await expect(
      ledger.claimRuns(
        claim("c9", 4, "a1", "dec-9", [{ ...plans[0], attempt: 2 }]),
      ),
    ).rejects.toThrow(
      'cannot apply under approval a1: gate "tf-wave-2" was revoked after this job read it; nothing applied',
    );
  });
});

Deno.test("dirLedger() reports a plan set it cannot read, never reads it as none", async (t) => {
  await using dir = await tempDir();
  const ledger = dirLedger(dir.path, { random: counterRandomBytes() });
  const pairs = [{ target: "eu", planDigest: D }];
  const digest = setDigest(pairs);
  const sets = `${dir.path}/gates/${NAME}/${GATE}/sets`;
  const file = `${sets}/${digest.slice("sha256:".length)}.json`;
  await Deno.mkdir(sets, { recursive: true });
  const cases: { name: string; make: () => Promise<void>; message: string }[] =
    [
      {
        name: "not JSON",
        make: () => Deno.writeTextFile(file, "{ broken"),
        message: `${file}: is not JSON: `,
      },
      {
        name: "the set of another digest",
        make: () =>
          Deno.writeTextFile(file, JSON.stringify({ digest: D, members: [] })),
        message: `${file}: is not the plan set of ${digest}`,
      },
      {
        name: "members that hash to another digest",
        make: () =>
          Deno.writeTextFile(
            file,
            JSON.stringify({
              digest,
              members: [{ target: "us", planDigest: D }],
            }),
          ),
        message: `${file}: its members hash to ${
          setDigest([{ target: "us", planDigest: D }])
        }, not ${digest}`,
      },
      {
        name: "a member of the wrong form",
        make: () =>
          Deno.writeTextFile(file, JSON.stringify({ digest, members: [7] })),
        message: `${file}: "members[0]" is not an object: 7`,
      },
      {
        name: "a directory in its place",
        make: async () => {
          await Deno.remove(file).catch(() => {});
          await Deno.mkdir(file);
        },
        message: `${file}: is not a regular file`,
      },
    ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await Deno.remove(file, { recursive: true }).catch(() => {});
      await c.make();
      const error = await ledger.readPlanSet(NAME, GATE, digest).then(
        () => undefined,
        (e) => e,
      );
      expect(error).toBeInstanceOf(ShapeError);
      expect((error as ShapeError).exitCode).toBe(2);
      expect((error as ShapeError).message.startsWith(c.message)).toBe(true);
      await expect(ledger.readPlanSets(NAME, GATE, [digest])).rejects.toThrow(
        ShapeError,
      );
    });
  }
  await t.step("no file at all is no set", async () => {
    await Deno.remove(file, { recursive: true });
    expect(await ledger.readPlanSet(NAME, GATE, digest)).toBeUndefined();
  });
});
