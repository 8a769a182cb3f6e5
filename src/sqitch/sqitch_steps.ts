/**
 * The sqitch steps of the `tool` shorthand and of `plan-file sqitch` (SPEC.md
 * §17). Every sqitch command runs in the project's directory (`--chdir`),
 * pinned (`pinned_sqitch.ts`: the configuration with no revert script
 * reachable, the server's and psql's reading of text). Planning checks the
 * configuration sqitch runs with, finds the client, lists the plan (`sqitch
 * plan`), asks the database what it has deployed (its registry through the
 * client, else `sqitch status`), reads and judges each pending change's scripts and the files they include, and writes
 * the plan file made from them. Applying checks the configuration and that the
 * database is still where the plan found it (`sqitch status`), then deploys up to the last
 * change planned (`sqitch deploy --to <id>`), never further, with the client
 * and verify the plan was made for and `--mode change`. It decides nothing
 * about the wave.
 * @module
 */

// @ts-types="../../types/std/path.d.ts"
import { isAbsolute, resolve } from "@std/path";
import type { StepResult } from "../exec/run_step.ts";
import { BoundedReadError, readBounded } from "../fs/read_bounded.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import { ShapeError } from "../input/shape_error.ts";
import { MAX_PLAN_FILE_BYTES } from "../limits.ts";
import { MAX_PLAN_CHANGES } from "../plan/plan_file.ts";
import {
  type StepRunner,
  toolFailure,
  type ToolStepResult,
} from "../exec/run_tool_step.ts";
import { sqitchState } from "./_sqitch_output.ts";
import {
  failedStep,
  type Got,
  newSqitchPass,
  type PinnedSite,
  readConfig,
  readDeployed,
  readDeployedFromRegistry,
  readPlan,
  readScript,
  shownTarget,
  type SqitchPass,
  type SqitchPlace,
  type SqitchSite,
} from "./_sqitch_queries.ts";
import { judgeChange } from "./change_scripts.ts";
import { resolveClient } from "./database_client.ts";
import { checkoutOf, programInCheckout } from "../fs/program_path.ts";
import { projectEscape } from "./project_links.ts";
import { quote } from "../quote.ts";
import { pinSqitch } from "./pinned_sqitch.ts";
import { digestOf } from "./project_files.ts";
import type { SqitchSettings } from "./sqitch_at_base.ts";
import { checkedConfig, type SqitchConnection } from "./sqitch_config.ts";
import { withoutPassword } from "./target_uri.ts";
import {
  type PendingChange,
  pendingChanges,
  sqitchPlanFile,
  type SqitchState,
} from "./sqitch_plan_file.ts";

export type { SqitchPass, SqitchPlace } from "./_sqitch_queries.ts";
export { newSqitchPass } from "./_sqitch_queries.ts";

/** A plan step that ran and did its work. */
const DONE: StepResult = {
  exitCode: 0,
  ok: true,
  timedOut: false,
  interrupted: false,
  tail: [],
  durationMs: 0,
};

/** How a sqitch plan is made. */
export interface SqitchPlanOptions {
  /** Whether a `-- chant-wave: not destructive` mark counts. */
  honourMarks: boolean;
  /** How sqitch runs (the spec at base). */
  settings: SqitchSettings;
  /** The planning pass whose runs share what they read (none: a pass of its own). */
  pass?: SqitchPass;
}

/**
 * Checks the configuration sqitch runs with (pinned), then runs `steps`.
 * @returns The first failed step, or what `steps` returned.
 */
async function withPinnedSqitch(
  site: SqitchSite,
  phase: "plan" | "apply",
  pass: SqitchPass,
  runner: StepRunner,
  steps: (
    pinned: PinnedSite,
    config: string | null,
    connection: SqitchConnection,
  ) => Promise<ToolStepResult>,
): Promise<ToolStepResult> {
  const files = pass.files(resolve(runner.cwd, site.dir));
  const checkout = checkoutOf(runner.cwd);
  // A name is looked up on the pinned PATH; a path is where it leads.
  const inside = programInCheckout(
    "the sqitch program",
    site.binary,
    runner.cwd,
    checkout,
  );
  if (inside !== undefined) {
    return toolFailure(phase, runner.label, inside, []);
  }
  // Once a planning pass: every run of it reads the same project. It is
  // named as sqitch's --chdir reaches it: the system follows a link before a
  // `..`, which `resolve` would undo by name.
  const given = isAbsolute(site.dir) ? site.dir : `${runner.cwd}/${site.dir}`;
  const key = `links\0${given}`;
  let walked = pass.memo.get(key) as
    | Promise<Got<string | undefined>>
    | undefined;
  if (walked === undefined) {
    walked = projectEscape(given, checkout).then((value) => ({
      ok: true,
      value,
    }));
    pass.memo.set(key, walked);
  }
  const escape = ((await walked) as { value: string | undefined }).value;
  if (escape !== undefined) {
    return toolFailure(phase, runner.label, escape, []);
  }
  const pinning = await pinSqitch(files, pass.revertDir, runner.env, checkout);
  if (typeof pinning === "string") {
    return toolFailure(phase, runner.label, pinning, []);
  }
  // Not `await using`: the bundle runs on Node 20, which has none.
  try {
    const run = { ...site, env: pinning.env, scratch: pinning.dir };
    const listing = await readConfig(run, runner, pass);
    if (!listing.ok) return failedStep(phase, runner, listing);
    let connection;
    try {
      connection = checkedConfig(listing.value, site.target, pass.revertDir);
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      return toolFailure(phase, runner.label, error.message, []);
    }
    return await steps(run, pinning.config, connection);
  } finally {
    await pinning[Symbol.asyncDispose]();
  }
}

/**
 * Plans one database: the configuration sqitch runs with, the client, what
 * the database has deployed, the plan, each pending change's scripts judged
 * with every file they include; then the plan file written at `planPath`
 * (atomically).
 * @param place The project directory and the database.
 * @param planPath The plan file, relative to the runner's working directory.
 * @param options Whether marks count, how sqitch runs, the planning pass.
 * @param runner Runs the steps and names the run.
 * @returns The first failed step (`plan of "<target>": cannot read what
 *   "<database>" has deployed: "sqitch status" exited 2`), or ok with the plan
 *   file written; never rejects for sqitch's own failures.
 */
export async function planWithSqitch(
  place: SqitchPlace,
  planPath: string,
  options: SqitchPlanOptions,
  runner: StepRunner,
): Promise<StepResult> {
  const { settings } = options;
  const pass = options.pass ?? newSqitchPass();
  const fail = (why: string) => toolFailure("plan", runner.label, why, []);
  return await withPinnedSqitch(
    { ...place, binary: settings.program },
    "plan",
    pass,
    runner,
    async (pinned, config, connection) => {
      const client = await resolveClient(
        settings.client,
        runner.env.PATH,
        checkoutOf(runner.cwd),
      );
      if (typeof client === "string") return fail(client);
      const plan = await readPlan(pinned, runner, pass);
      if (!plan.ok) return failedStep("plan", runner, plan);
      const deployed = await readDeployedFromRegistry(
        pinned,
        {
          uri: connection.uri,
          registry: connection.registry,
          project: plan.value[0].project,
          client: client.path,
        },
        "plan",
        runner,
      );
      if (!deployed.ok) return failedStep("plan", runner, deployed);
      let pending;
      try {
        pending = pendingChanges(plan.value, deployed.value);
      } catch (error) {
        if (!(error instanceof ShapeError)) throw error;
        return fail(error.message);
      }
      if (pending.length > MAX_PLAN_CHANGES) {
        return fail(
          `${pending.length} changes are pending; chant-wave plans at most ${MAX_PLAN_CHANGES} at once`,
        );
      }
      const files = pass.files(resolve(runner.cwd, place.dir));
      const planText = await files.read("sqitch.plan");
      if ("why" in planText) {
        return fail(
          `cannot read the project's sqitch.plan: it ${planText.why}`,
        );
      }
      const context = {
        parser: await pass.parser(),
        created: new Set<string>(),
        schemas: new Set<string>(),
        registries: new Set(connection.registries),
      };
      const judged: PendingChange[] = [];
      for (const change of pending) {
        if (change.name.split("/").some((part) => part === "..")) {
          return fail(
            `change ${
              quote(change.name)
            }: its scripts' paths hold "..", which sqitch follows through links and psql undoes by name: two files`,
          );
        }
        const path = (script: string) => `${script}/${change.name}.sql`;
        const deploy = await readScript(pinned, change, "deploy", runner, pass);
        if (!deploy.ok) return failedStep("plan", runner, deploy);
        const verify = settings.verify
          ? await readScript(pinned, change, "verify", runner, pass)
          : undefined;
        if (verify && !verify.ok) return failedStep("plan", runner, verify);
        judged.push({
          ...change,
          judged: await judgeChange(
            { path: path("deploy"), bytes: deploy.value },
            verify && { path: path("verify"), bytes: verify.value },
            context,
            files,
          ),
        });
      }
      const file = sqitchPlanFile({
        project: plan.value[0].project,
        target: withoutPassword(place.template ?? place.target),
        deployed: deployed.value,
        pending: judged,
        honourMarks: options.honourMarks,
        program: settings.program,
        client,
        verify: settings.verify,
        config,
        plan: digestOf(planText.bytes),
      });
      try {
        await writeFileAtomic(
          resolve(runner.cwd, planPath),
          `${JSON.stringify(file)}\n`,
        );
      } catch (error) {
        return fail(
          `cannot write the plan file ${JSON.stringify(planPath)}: ${
            (error as Error).message
          }`,
        );
      }
      return DONE;
    },
  );
}

/** A change id as messages show it. */
function idOf(id: string | null): string {
  return id === null ? "nothing" : id.slice(0, 12);
}

/**
 * Applies one database's plan: reads the plan file's apply state, checks the
 * configuration sqitch runs with and that the database still has deployed
 * what it had at plan time, then `sqitch deploy --to <last planned change>
 * --mode change --client <client> --verify|--no-verify`: on a failure no
 * revert script runs (none is reachable, and the mode reverts nothing).
 * @param place The project directory and the database (the program is the plan's).
 * @param planPath The plan file, relative to the runner's working directory.
 * @param runner Runs the steps and names the run.
 * @returns How the deploy ended; `moved` (and nothing deployed) when the
 *   database moved since the plan: `apply of "<target>": "<database>" moved
 *   since the plan: it had deployed 1a2b3c4d5e6f, it has deployed 9f8e7d6c5b4a
 *   now; nothing deployed`. Never rejects for sqitch's own failures.
 */
export async function applyWithSqitch(
  place: SqitchPlace,
  planPath: string,
  runner: StepRunner,
): Promise<ToolStepResult> {
  const planned = await readState(planPath, runner);
  if (typeof planned === "string") {
    return toolFailure(
      "apply",
      runner.label,
      `the plan file ${JSON.stringify(planPath)} ${planned}`,
      [],
    );
  }
  if (planned.deployTo === null) return DONE;
  return await withPinnedSqitch(
    { ...place, binary: planned.program },
    "apply",
    newSqitchPass(),
    runner,
    async (pinned) => {
      const now = await readDeployed(pinned, "apply", runner);
      if (!now.ok) return failedStep("apply", runner, now);
      if (now.value !== planned.deployed) {
        return {
          ...toolFailure(
            "apply",
            runner.label,
            `${shownTarget(place)} moved since the plan: it had deployed ${
              idOf(planned.deployed)
            }, it has deployed ${idOf(now.value)} now; nothing deployed`,
            [],
          ),
          moved: true,
        };
      }
      return await runner.run({
        argv: [
          planned.program,
          `--chdir=${place.dir}`,
          "deploy",
          `--target=${place.target}`,
          `--to=${planned.deployTo}`,
          "--mode=change",
          `--client=${planned.client}`,
          planned.verify ? "--verify" : "--no-verify",
        ],
        phase: "apply",
        env: pinned.env,
      });
    },
  );
}

/** The apply state of the plan file, or why it cannot be read (a bug is thrown). */
async function readState(
  planPath: string,
  runner: StepRunner,
): Promise<SqitchState | string> {
  let text: string;
  try {
    text = await readBounded(resolve(runner.cwd, planPath), {
      maxBytes: MAX_PLAN_FILE_BYTES,
    });
  } catch (error) {
    return error instanceof BoundedReadError
      ? error.why
      : (error as Error).message;
  }
  try {
    return sqitchState(text);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    return error.message;
  }
}
