// End to end through the binary under `env -i`: `run --pull-request` (SPEC.md
// §18), the plan job of a pull request, against the fake GitHub: the first push
// creates one comment, the second edits it, a third with no changes says so; a
// comment with the marker by someone else is left alone; a status per wave on
// the head; a fork's request gets the job summary only and says why; hostile
// names, addresses and summaries stay inert; nothing is applied or recorded.
// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { fakeForge } from "../_helpers/fake_forge.ts";
import {
  errorLines,
  type Rollout,
  rollout,
  SPEC,
  specOf,
} from "../_helpers/rollout.ts";

const HOSTILE_TARGET = "eu_[x](https:--evil.example)";
const WAVES = [
  { name: "one", gate: "always", runs: ["eu"] },
  { name: "two", gate: "never", runs: ["us", HOSTILE_TARGET] },
];
const MARKER = "<!-- chant-wave plan: tf -->";

/**
 * Writes the event of pull request 7 from `repo` whose target's tip is
 * `target` (default: the rollout's base commit).
 * @returns The event file's path.
 */
async function pullEvent(
  r: Rollout,
  repo: string,
  target = r.base,
): Promise<string> {
  const event = `${r.path}/.chant-event.json`;
  await Deno.writeTextFile(
    event,
    JSON.stringify({
      pull_request: {
        number: 7,
        head: { repo: { full_name: repo } },
        base: { sha: target },
      },
    }),
  );
  return event;
}

/** The environment of a GitHub pull request job of `event`, with a token. */
function githubRequest(
  event: string,
  fake: { apiUrl: string; token: string },
): Record<string, string> {
  return {
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_PATH: event,
    GITHUB_REPOSITORY: "octo/hello",
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_TOKEN: fake.token,
  };
}

function html(markdown: string): string {
  return micromark(markdown, {
    allowDangerousHtml: true,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
}

Deno.test("run --pull-request keeps one plan comment and a status per wave on the pull request", async (t) => {
  await using r = await rollout(specOf(WAVES));
  await using fake = fakeForge("github");
  fake.state.comments.set(7, [
    { id: 1, author: "mallory", body: `${MARKER}\nall approved`, edits: 0 },
  ]);
  const summary = `${r.path}/.chant-summary.md`;
  const event = await pullEvent(r, "octo/hello");
  const env = {
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_EVENT_PATH: event,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_RUN_ID: "88",
    GITHUB_SERVER_URL: "https://github.example",
    GITHUB_REPOSITORY: "octo/hello",
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_TOKEN: fake.token,
  };
  const ours = () =>
    fake.state.comments.get(7)!.filter((c) => c.author !== "mallory");

  await t.step(
    "the first push creates the comment and the statuses",
    async () => {
      await r.desire("eu", "v1");
      await r.desire("us", "v1 destroy");
      const out = await r.run(["run", ...SPEC, "--pull-request"], env);
      expect(errorLines(out.stderr)).toEqual([]);
      expect(out.code).toBe(0);
      expect(out.stdout).toBe("");
      expect(out.stderr).toContain(
        `chant-wave: planning every wave of tf at ${r.head.slice(0, 12)}\n`,
      );
      expect(out.stderr).toContain(
        'wave 1 "one": 1 to change, waits for 1 approval\n',
      );
      expect(out.stderr).toContain(
        'wave 2 "two": 2 to change, applies without approval\n',
      );
      expect(out.stderr).toMatch(
        new RegExp(
          `created the plan comment \\d+ on request 7, and 2 statuses of ${
            r.head.slice(0, 12)
          }\n`,
        ),
      );
      const [comment] = ours();
      expect(comment.author).toBe("github-actions[bot]");
      expect(comment.body.split("\n")[0]).toBe(MARKER);
      expect(comment.body).toContain(
        "#### Wave 1 (one): 1 of 1 run changes, waits for 1 approval",
      );
      expect(comment.body).toContain("Gate at base: **always**");
      expect(comment.body).toContain("- us: us: v1 destroy (destructive)");
      expect(fake.state.statuses.get(r.head)).toEqual([
        {
          id: 1,
          state: "success",
          context: "chant-wave/tf/plan/one",
          description: "1 to change, waits for 1 approval",
          targetUrl: "https://github.example/octo/hello/actions/runs/88",
        },
        {
          id: 2,
          state: "success",
          context: "chant-wave/tf/plan/two",
          description: "2 to change, applies without approval",
          targetUrl: "https://github.example/octo/hello/actions/runs/88",
        },
      ]);
      expect(await Deno.readTextFile(summary)).toContain(comment.body);
      expect(fake.protocolErrors).toEqual([]);
    },
  );

  await t.step("the second push edits it, never a second comment", async () => {
    await r.desire("eu", "v2");
    const out = await r.run(["run", ...SPEC, "--pull-request"], env);
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/edited the plan comment \d+ on request 7/);
    expect(ours().length).toBe(1);
    expect(ours()[0].edits).toBe(1);
    expect(ours()[0].body).toContain("eu: v2");
  });

  await t.step("a third push with no changes says so", async () => {
    for (const target of ["eu", "us", HOSTILE_TARGET]) {
      await r.desire(target, "empty");
    }
    const out = await r.run(["run", ...SPEC, "--pull-request"], env);
    expect(out.code).toBe(0);
    expect(ours().length).toBe(1);
    expect(ours()[0].body).toContain(
      "No wave changes anything at this commit.",
    );
    expect(out.stderr).toContain('wave 1 "one": no changes\n');
  });

  await t.step(
    "the comment with the marker by someone else is left alone",
    () => {
      expect(fake.state.comments.get(7)![0]).toEqual({
        id: 1,
        author: "mallory",
        body: `${MARKER}\nall approved`,
        edits: 0,
      });
    },
  );

  await t.step("hostile names, addresses and summaries are inert", async () => {
    const hostile =
      "x\\n### Approved\\n| a | b |\\n[click](https://evil.example) <img src=x> @org/team";
    await r.control(
      "eu",
      "plan-raw",
      JSON.stringify({
        planDigest: `sha256:${"e".repeat(64)}`,
        destructive: true,
        summary: hostile.replaceAll("\\n", "\n"),
        changes: [{
          address: hostile.replaceAll("\\n", "\n"),
          action: "delete",
        }],
      }),
    );
    await r.desire(HOSTILE_TARGET, "v3");
    const out = await r.run(["run", ...SPEC, "--pull-request"], env);
    expect(out.code).toBe(0);
    const rendered = html(ours()[0].body);
    expect(rendered).not.toContain("<a ");
    expect(rendered).not.toContain("<img");
    expect(rendered).not.toContain("<table");
    expect(rendered.match(/<h[1-6]>/g)).toEqual(["<h3>", "<h4>", "<h4>"]);
    expect(ours()[0].body).toContain("**delete** (-)");
    await r.uncontrol("eu", "plan-raw");
  });

  await t.step("a fork's request writes no comment and says why", async () => {
    await pullEvent(r, "mallory/hello");
    const before = JSON.stringify(fake.state.comments.get(7));
    const statuses = fake.state.statuses.get(r.head)!.length;
    await Deno.writeTextFile(summary, "");
    const out = await r.run(["run", ...SPEC, "--pull-request"], env);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      "request 7 comes from a fork, whose token cannot write here: the plan is in the job summary only\n",
    );
    expect(JSON.stringify(fake.state.comments.get(7))).toBe(before);
    expect(fake.state.statuses.get(r.head)!.length).toBe(statuses);
    expect(await Deno.readTextFile(summary)).toContain(MARKER);
  });

  await t.step(
    "a read-only token gets the job summary only, and says why",
    async () => {
      await pullEvent(r, "octo/hello");
      fake.state.readOnly = true;
      const out = await r.run(["run", ...SPEC, "--pull-request"], env);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        "the forge refused the token (HTTP 403; a request from a fork gets a read-only token): the plan is in the job summary only\n",
      );
      fake.state.readOnly = false;
    },
  );

  await t.step("nothing was applied or recorded", async () => {
    expect(await r.applied()).toEqual([]);
    await expect(Deno.stat(`${r.path}/.chant/ledger`)).rejects.toThrow(
      Deno.errors.NotFound,
    );
  });
});

Deno.test("run --pull-request outside a request's job prints the comment", async () => {
  await using r = await rollout(specOf(WAVES));
  await r.desire("eu", "v1");
  const out = await r.run(["run", ...SPEC, "--pull-request"]);
  expect(out.code).toBe(0);
  expect(out.stdout.split("\n")[0]).toBe(MARKER);
  expect(out.stdout).toContain("#### Wave 1 (one): 1 of 1 run changes");
  expect(out.stderr).toContain(
    "not a request's job (not in a CI job): the plan is printed only\n",
  );
});

Deno.test("run --pull-request --record-plans plans once and records the plans too", async () => {
  await using r = await rollout(specOf(WAVES));
  const out = await r.run([
    "run",
    ...SPEC,
    "--pull-request",
    "--record-plans",
    "--json",
  ]);
  expect(out.code).toBe(0);
  const result = JSON.parse(out.stdout);
  expect(result.recorded.file).toBe(".chant/recorded-plans/tf.json");
  expect(result.recorded.waves.map((w: { wave: number }) => w.wave)).toEqual([
    1,
    2,
  ]);
  // One planning pass: each run planned once.
  expect(out.stderr.match(/planning eu\b/g)?.length).toBe(1);
});

Deno.test("run --pull-request refuses the flags of a wave's job", async () => {
  await using r = await rollout(specOf(WAVES));
  const out = await r.run(["run", ...SPEC, "--pull-request", "--wave", "1"]);
  expect(out.code).toBe(2);
  expect(errorLines(out.stderr)).toEqual([
    'error: "--pull-request" plans every wave and takes no "--wave"',
  ]);
});

for (const forge of ["gitlab", "forgejo"] as const) {
  Deno.test(`run --pull-request on ${forge}: one comment, edited on the next push, and a status per wave`, async () => {
    await using r = await rollout(specOf(WAVES));
    await using fake = fakeForge(forge);
    const event = await pullEvent(r, "octo/hello");
    const env: Record<string, string> = forge === "gitlab"
      ? {
        GITLAB_CI: "true",
        CI_API_V4_URL: fake.apiUrl,
        CI_PROJECT_ID: "42",
        CI_MERGE_REQUEST_IID: "7",
        CI_MERGE_REQUEST_PROJECT_ID: "42",
        CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "42",
        GITLAB_TOKEN: fake.token,
      }
      : {
        FORGEJO_ACTIONS: "true",
        GITHUB_EVENT_PATH: event,
        GITHUB_REPOSITORY: "octo/hello",
        GITHUB_API_URL: fake.apiUrl,
        GITHUB_TOKEN: fake.token,
      };
    if (forge === "gitlab") fake.state.tokenUser = "project_42_bot";
    await r.desire("eu", "v1");
    const first = await r.run(["run", ...SPEC, "--pull-request"], env);
    expect(errorLines(first.stderr)).toEqual([]);
    expect(first.code).toBe(0);
    await r.desire("eu", "v2");
    const second = await r.run(["run", ...SPEC, "--pull-request"], env);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/edited the plan comment \d+ on request 7/);
    const comments = fake.state.comments.get(7)!;
    expect(comments.length).toBe(1);
    expect(comments[0].body).toContain("eu: v2");
    const statuses = forge === "gitlab"
      ? fake.state.gitlabStatuses.get(r.head)!
      : fake.state.statuses.get(r.head)!;
    const pushed = [
      [
        "chant-wave/tf/plan/one",
        "success",
        "1 to change, waits for 1 approval",
      ],
      [
        "chant-wave/tf/plan/two",
        "success",
        "2 to change, applies without approval",
      ],
    ];
    // One status per wave on each push.
    expect(statuses.map((s) => [s.context, s.state, s.description])).toEqual([
      ...pushed,
      ...pushed,
    ]);
    expect(fake.protocolErrors).toEqual([]);
  });
}

Deno.test("run --pull-request states the gate at the request's base, never the one its own spec says", async () => {
  const loosened = WAVES.map((wave) => ({ ...wave, gate: "never" }));
  await using r = await rollout(specOf(WAVES), {
    headSpec: specOf(loosened),
  });
  await using fake = fakeForge("github");
  const event = await pullEvent(r, "octo/hello");
  await r.desire("eu", "v1");
  const out = await r.run(
    ["run", ...SPEC, "--pull-request"],
    githubRequest(event, fake),
  );
  expect(out.code).toBe(0);
  expect(out.stderr).toContain(
    'wave 1 "one": 1 to change, waits for 1 approval\n',
  );
  const [comment] = fake.state.comments.get(7)!;
  expect(comment.body).toContain(
    `Gate at base: **always**, 1 approver, anyone, self-approval allowed; rule: the policy is "always" (read at ${await r
      .readAt()}: wave 1 "one" by name and position)`,
  );
  expect(fake.state.statuses.get(r.head)![0].description).toBe(
    "1 to change, waits for 1 approval",
  );
});

Deno.test("run --pull-request with no token says so; a run that fails to plan ends 1 with a failure status", async (t) => {
  await using r = await rollout(specOf(WAVES));
  await using fake = fakeForge("github");
  const event = await pullEvent(r, "octo/hello");
  const env = {
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_PATH: event,
    GITHUB_REPOSITORY: "octo/hello",
    GITHUB_API_URL: fake.apiUrl,
  };
  await t.step("no token: the job summary only, exit 0", async () => {
    const out = await r.run(["run", ...SPEC, "--pull-request"], env);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      "no forge token (set CHANT_WAVE_FORGE_TOKEN or GITHUB_TOKEN or GH_TOKEN): the plan is in the job summary only\n",
    );
    expect(fake.requests).toEqual([]);
  });
  await t.step(
    "a run that fails to plan: exit 1, its wave's status a failure",
    async () => {
      await r.control("us", "plan-exit", "7");
      const out = await r.run(["run", ...SPEC, "--pull-request"], {
        ...env,
        GITHUB_TOKEN: fake.token,
      });
      expect(out.code).toBe(1);
      expect(out.stderr).toContain('wave 2 "two": 1 run failed to plan\n');
      expect(fake.state.comments.get(7)![0].body).toContain(
        "#### Wave 2 (two): 1 run failed to plan",
      );
      expect(
        fake.state.statuses.get(r.head)!.map((s) => [s.context, s.state]),
      ).toEqual([
        ["chant-wave/tf/plan/one", "success"],
        ["chant-wave/tf/plan/two", "failure"],
      ]);
      expect(await r.applied()).toEqual([]);
    },
  );
  await t.step(
    "any other refusal by the forge: exit 1, saying so",
    async () => {
      await r.uncontrol("us", "plan-exit");
      fake.fail({ status: 422, body: { message: "Validation Failed" } });
      const out = await r.run(["run", ...SPEC, "--pull-request"], {
        ...env,
        GITHUB_TOKEN: fake.token,
      });
      expect(out.code).toBe(1);
      const errors = errorLines(out.stderr);
      expect(errors.length).toBe(1);
      expect(errors[0]).toMatch(
        /^error: cannot say the plan on github: GET .*\/user: HTTP 422/,
      );
      expect(out.stderr).not.toContain(fake.token);
    },
  );
});

Deno.test("run --pull-request states the gate the target's tip holds when the request left the target earlier", async () => {
  const loose = WAVES.map((wave) => ({ ...wave, gate: "never" }));
  await using r = await rollout(specOf(loose));
  // The target moved on after the request left it: its tip tightens wave 1.
  await r.repo.git("checkout", "-q", "-b", "target", r.base);
  const tip = await r.repo.commit("tighten wave one", {
    "waves.json": JSON.stringify(specOf(WAVES), null, 2) + "\n",
  });
  await r.repo.git("checkout", "-q", "-");
  const event = await pullEvent(r, "octo/hello", tip);
  await using fake = fakeForge("github");
  await r.desire("eu", "v1");
  const out = await r.run(
    ["run", ...SPEC, "--pull-request"],
    githubRequest(event, fake),
  );
  expect(out.code).toBe(0);
  expect(out.stderr).toContain(
    `base: ${r.base.slice(0, 12)}, where the request leaves its target, and ${
      tip.slice(0, 12)
    }, the target's tip\n`,
  );
  expect(out.stderr).toContain(
    'wave 1 "one": 1 to change, waits for 1 approval\n',
  );
});
