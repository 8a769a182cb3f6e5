// End to end through the binary: what a job reports besides its log. In GitHub
// Actions it appends a Markdown summary to $GITHUB_STEP_SUMMARY (SPEC.md §2.2,
// §7); with `notify` it POSTs signed events to a webhook (§8), here a real
// receiver on 127.0.0.1 that checks the signature.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { createHmac } from "node:crypto";
import { rollout, SPEC, specOf } from "../_helpers/rollout.ts";
import { hookServer } from "../notify/_hook_server.ts";

const KEY = "hook-key-never-logged";

async function approveAll(
  r: Awaited<ReturnType<typeof rollout>>,
  stderr: string,
): Promise<void> {
  const digest = stderr.match(/--plan (sha256:[0-9a-f]{64})/)![1];
  const out = await r.run([
    "approve",
    "tf",
    "tf-wave-1",
    "--plan",
    digest,
    "--by",
    "ann",
  ]);
  expect(out.code).toBe(0);
}

Deno.test("run in GitHub Actions appends a job summary to $GITHUB_STEP_SUMMARY", async (t) => {
  await using r = await rollout(
    specOf([{ name: "prod", gate: "always", runs: ["a", "b"] }]),
  );
  const file = `${r.repo.root}/summary.md`;
  await Deno.writeTextFile(file, "earlier step\n");
  const github = { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: file };
  let waiting = "";

  await t.step(
    "a waiting wave: the gate, the rules, the approve command, the runs waiting",
    async () => {
      const out = await r.run(["run", ...SPEC, "--wave", "1"], github);
      expect(out.code).toBe(3);
      waiting = out.stderr;
      const text = await Deno.readTextFile(file);
      expect(
        text.startsWith(
          "earlier step\n### chant-wave: wave 1 (prod): exit 3\n",
        ),
      )
        .toBe(true);
      expect(text).toMatch(
        /^Gate `tf-wave-1`: \*\*waiting\*\*, policy `always`, set digest `sha256:[0-9a-f]{64}`$/m,
      );
      expect(text).toContain(
        "\nApproval rules at base: ledger, 1 approver, anyone, self-approval allowed (read at ",
      );
      expect(text).toMatch(
        /^chant-wave approve tf tf-wave-1 --plan sha256:[0-9a-f]{64}$/m,
      );
      expect(text).toContain("| run | plan digest | summary | outcome |");
      expect(text).toMatch(
        /^\| a \| `sha256:[0-9a-f]{64}` \| a: none \| waiting \|$/m,
      );
      expect(text).toMatch(
        /^\| b \| `sha256:[0-9a-f]{64}` \| b: none \| waiting \|$/m,
      );
    },
  );

  await t.step(
    "once approved, a second section shows the applied runs",
    async () => {
      await approveAll(r, waiting);
      const out = await r.run(["run", ...SPEC, "--wave", "1"], github);
      expect(out.code).toBe(0);
      const sections = (await Deno.readTextFile(file)).split(
        "### chant-wave: ",
      );
      expect(sections).toHaveLength(3);
      expect(sections[2]).toMatch(/^wave 1 \(prod\): exit 0\n/);
      expect(sections[2]).toMatch(/\*\*approved\*\* by ann/);
      expect(sections[2]).toMatch(/^\| a \| .* \| applied \|$/m);
      expect(sections[2]).toMatch(/^\| b \| .* \| applied \|$/m);
    },
  );

  await t.step("outside GitHub Actions nothing is appended", async () => {
    const before = await Deno.readTextFile(file);
    const out = await r.run(["run", ...SPEC, "--wave", "1"], {
      GITHUB_STEP_SUMMARY: file,
    });
    // Every plan applied already under the approval: nothing to do, exit 0.
    expect(out.code).toBe(0);
    expect(await Deno.readTextFile(file)).toBe(before);
  });
});

Deno.test("run with notify POSTs signed events to the webhook", async (t) => {
  await using server = hookServer();
  await using r = await rollout(specOf(
    [{ name: "prod", gate: "always", runs: ["a", "b"] }],
    { notify: { webhook: "CHANT_HOOK_URL", key: "CHANT_HOOK_KEY" } },
  ));
  const env = { CHANT_HOOK_URL: server.url, CHANT_HOOK_KEY: KEY };
  const verify = (n: number) => {
    const got = server.received[n];
    const timestamp = got.headers.get("x-chant-wave-timestamp")!;
    expect(timestamp).toMatch(/^\d+$/);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(600);
    const mac = createHmac("sha256", KEY).update(`${timestamp}.${got.body}`)
      .digest("hex");
    expect(got.headers.get("x-chant-wave-signature")).toBe(`sha256=${mac}`);
    expect(got.headers.get("content-type")).toBe("application/json");
    return JSON.parse(got.body);
  };
  let waiting = "";

  await t.step('a waiting wave sends one signed "waiting" event', async () => {
    const out = await r.run(["run", ...SPEC, "--wave", "1"], env);
    expect(out.code).toBe(3);
    waiting = out.stderr;
    expect(server.received).toHaveLength(1);
    const event = verify(0);
    expect(event).toMatchObject({
      event: "waiting",
      name: "tf",
      wave: 1,
      waveName: "prod",
      gate: "tf-wave-1",
      job: { kind: "wave" },
    });
    expect(event.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(event.approve).toBe(
      `chant-wave approve tf tf-wave-1 --plan ${event.digest}`,
    );
    expect(out.stderr).toContain(
      'notify: delivered "waiting" (HTTP 204, 1 attempt)',
    );
    expect(out.stderr).not.toContain(server.url);
    expect(out.stderr).not.toContain("s3cr3t-url-token");
    expect(out.stderr).not.toContain(KEY);
  });

  await t.step(
    'an approved wave sends "applied" with its targets',
    async () => {
      await approveAll(r, waiting);
      const out = await r.run(["run", ...SPEC, "--wave", "1"], env);
      expect(out.code).toBe(0);
      expect(server.received).toHaveLength(2);
      const event = verify(1);
      expect(event).toMatchObject({ event: "applied", targets: ["a", "b"] });
      expect(event.summary).toBe("wave 1 (prod) of tf, applied 2 runs");
    },
  );

  await t.step('a failed plan sends "failed"', async () => {
    await r.control("b", "plan-exit", "7");
    const out = await r.run(["run", ...SPEC, "--wave", "1"], env);
    expect(out.code).toBe(1);
    expect(server.received).toHaveLength(3);
    expect(verify(2)).toMatchObject({ event: "failed", targets: ["b"] });
  });

  await t.step("without the variable nothing is sent", async () => {
    await r.uncontrol("b", "plan-exit");
    const out = await r.run(["run", ...SPEC, "--wave", "1"]);
    expect(out.code).toBe(0);
    expect(server.received).toHaveLength(3);
  });
});
