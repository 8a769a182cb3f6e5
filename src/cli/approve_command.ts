/**
 * `chant-wave approve NAME GATE` (SPEC.md §5.3, §12, §13.1): records an approval
 * of one set digest, the one given with `--plan`, that of the newest pending
 * fact, or with `--decided` that of the wave's decision record in the working
 * directory (as a GitLab manual approve job finds it, `--via` naming the forge
 * action that approves); sealed with the approver's SSH key under `--sign`;
 * says, as advice, whether the rules the waiting job met will count it
 * (`decidePending`: the approval is recorded anyway, and the runner decides
 * for itself); and with `--resume` restarts the CI job that waited once the
 * approval is recorded (with the git ledger: pushed), as `resume` does (§13).
 * @module
 */

import { specParser } from "./_load_spec.ts";
import { lineLog } from "../console/line_log.ts";
import { gateStatus } from "../gate/gate_status.ts";
import { isDigest } from "../digest/set_digest.ts";
import { InputError } from "../errors.ts";
import { OK } from "../exit_codes.ts";
import { newestPendingDigest } from "../gate/decide_gate.ts";
import { approvedLines } from "../gate/gate_messages.ts";
import {
  type ApprovalRecord,
  approvalRecord,
  type LedgerRecord,
  newStamp,
  type PendingRecord,
} from "../gate/records.ts";
import type { PlanSetMember } from "../gate/plan_set_file.ts";
import { resolveSigningKey, signApproval } from "../seal/sign_approval.ts";
import {
  parseSshPublicKeyLine,
  sshKeyFingerprint,
} from "../seal/ssh_public_key.ts";
import { approveConfirmer } from "../review/forge_confirmer.ts";
import { ciContext } from "../ci/ci_context.ts";
import { whoRuns } from "../ci/who_runs.ts";
import { countOf } from "../count_of.ts";
import type { CliIo, Command } from "./io.ts";
import {
  GATE_SPEC_FLAG,
  jsonFlag,
  LEDGER_FLAG,
  parseFlags,
  WAVE_FLAG,
} from "./_flags.ts";
import { chooseLedger, fetchRemote, openLedger } from "./_open_ledger.ts";
import {
  findWave,
  type GateTarget,
  gateTarget,
  requireKnownGate,
} from "./_gate_target.ts";
import { resumeExitCode, resumeOne } from "./resume_command.ts";
import { tallyLine } from "../gate/gate_tally.ts";
import { describeApprovers, describeMode } from "../gate/approval_at_base.ts";
import type { ApprovalConfirmer } from "../gate/confirm_approvals.ts";
import { decidePending, type PendingRulesIo } from "../base/pending_rules.ts";
import { hasControlCharacter } from "../console/visible.ts";
import { readDecision } from "../run/verify_decision.ts";

/** The `approve` command. */
export const approveCommand: Command = {
  name: "approve",
  summary: "approve a gate for one set of plans",
  usage: [
    "NAME GATE | --spec --wave [--plan | --decided] [--by] [--note] [--via]\n" +
    "[--sign] [--ledger] [--resume] [--json]",
  ],
  about: [
    "Records an approval of gate GATE of rollout NAME for exactly one set digest:",
    "--plan, or the digest of the newest pending fact of the gate. A job whose",
    "fresh plans differ refuses it.",
  ].join("\n"),
  examples: [
    "chant-wave approve demo demo-wave-2   # the plans the gate waits for now",
    "chant-wave approve demo demo-wave-2 --plan sha256:… --ledger git   # as printed",
    "chant-wave approve demo demo-wave-3 --sign   # sealed with git's SSH signing key",
    "chant-wave approve --spec waves.jsonc --wave staging --ledger git --resume   # and restart the job",
  ],
  flags: [
    GATE_SPEC_FLAG,
    WAVE_FLAG,
    {
      name: "plan",
      value: { name: "DIGEST" },
      description: "sha256:<64 hex>, as printed after 'then approve:'",
    },
    {
      name: "decided",
      description:
        "with --spec and --wave: the digest of the wave's decision record\n" +
        "here, when it waits (else approve nothing, exit 0)",
    },
    {
      name: "by",
      value: { name: "WHO" },
      description: "who approves",
      default: "the CI actor, git user.email, $USER",
    },
    {
      name: "note",
      value: { name: "TEXT" },
      description: "a note kept with the approval",
    },
    {
      name: "via",
      value: { name: "URL" },
      description:
        "the forge run or job that approves (the approve workflow's run,\n" +
        "GitLab's manual approve job); a forge gate counts the approval\n" +
        "once the forge confirms it",
    },
    {
      name: "sign",
      value: { name: "KEY", optional: true },
      description:
        "seal the approval with an SSH key (ssh-keygen -Y sign); KEY\n" +
        "is optional (git's user.signingkey when gpg.format is ssh);\n" +
        "write --sign=KEY, or put --sign KEY after NAME GATE",
    },
    LEDGER_FLAG,
    {
      name: "resume",
      description:
        "then restart the CI job that waited (as chant-wave resume does)",
    },
    jsonFlag(
      "print { ledger, record, resume? } on stdout: the approval as recorded",
    ),
  ],
  async run(argv, io) {
    const flags = parseFlags("approve", argv, approveCommand.flags);
    const sign = flags.optional.sign;
    const target = await gateTarget("approve", flags, io.cwd);
    const { name, gate } = target;
    const choice = chooseLedger(
      flags.strings.ledger,
      io.env,
      target.spec?.ledger,
    );
    const ledger = await openLedger(choice, io);
    let plan = flags.strings.plan;
    const via = flags.strings.via === undefined
      ? undefined
      : viaUrl(flags.strings.via);
    if (flags.booleans.decided) {
      if (plan !== undefined) {
        throw new InputError('"--plan" and "--decided" do not go together');
      }
      const decided = await decidedPlan(
        target,
        flags.strings.wave,
        flags.strings.spec,
        io.cwd,
      );
      if ("nothing" in decided) {
        lineLog(io.stderr)(decided.nothing);
        if (via === undefined) return OK;
        // One action approves once: the play still records, for the plans
        // decided, so no other record can name this run or job.
        lineLog(io.stderr)(
          `recording this approval of the decided plans all the same: a record naming this run or job may stand for no other plans`,
        );
      }
      plan = "nothing" in decided ? decided.decided : decided.digest;
    }
    if (plan !== undefined && !isDigest(plan)) {
      throw new InputError(
        `"--plan" must be sha256:<64 lowercase hex>, not "${plan}"`,
      );
    }
    await requireKnownGate(target, ledger);
    const log = lineLog(io.stderr);
    // What an approval needs: the newest pending fact and the approvals since
    // the gate's newest revoke (nothing before it counts).
    const { records } = await ledger.readGate(name, gate, { live: true });
    const pending = newestPendingDigest(records, io.clock.now());
    const digest = plan ?? pending;
    if (digest === undefined) {
      throw new InputError(
        `gate "${gate}" of "${name}" has no pending plan to approve in ${ledger.describe()}`,
        [
          "pass --plan sha256:<hex> as printed after 'then approve:'",
        ],
      );
    }
    if (pending !== undefined && pending !== digest) {
      log(
        `warning: gate "${gate}" waits for ${pending}, not ${digest}; this approval covers only the plans of ${digest}`,
      );
    }
    const plans = await ledger.readPlanSet(name, gate, digest);
    const used = gateStatus(
      records,
      new Map(plans ? [[digest, plans]] : []),
      io.clock.now(),
    ).approvals.find((a) => a.planDigest === digest && a.appliedBy.length > 0);
    if (used !== undefined) {
      log(
        `warning: the plans of ${digest} were applied under the approval by ${used.by} at ${used.timestamp}; this new approval lets them apply again`,
      );
    }
    const by = flags.strings.by ?? await defaultApprover(io);
    const url = ciContext(io.env).runUrl;
    const note = flags.strings.note;
    const stamp = newStamp(io.clock);
    // A seal signs the git ledger's counter at the tip read: the approval
    // reaches the branch at that number or later (`Seal.ledger`).
    const counter = sign === undefined ? undefined : (await ledger.mark()).next;
    const seal = sign === undefined ? undefined : await signApproval({
      approval: {
        name,
        gate,
        planDigest: digest,
        by,
        timestamp: new Date(stamp.now).toISOString(),
        ...(counter === undefined ? {} : { ledger: counter }),
      },
      principal: by,
      key: await resolveSigningKey(sign.value, io),
      env: io.env,
    });
    const record = approvalRecord({
      name,
      gate,
      planDigest: digest,
      by,
      ...(note === undefined ? {} : { note }),
      ...(url === undefined ? {} : { url }),
      ...(via === undefined ? {} : { via }),
      ...(seal === undefined ? {} : { seal }),
    }, stamp);
    await ledger.write(record);
    approvedLines(name, gate, digest, by).forEach(log);
    if (plans) log(`  it covers ${describePlans(plans)}`);
    log(`  recorded in ${ledger.describe()}`);
    if (via) log(`  via ${via}`);
    if (seal) {
      const fingerprint = await sshKeyFingerprint(
        parseSshPublicKeyLine(seal.publicKey),
      );
      log(`signed as ${seal.principal} with ${fingerprint}`);
    }
    // The forge confirms an approve run or job only once it finished: this
    // one counts as recorded, the gate's others as the forge says (§13.1).
    const confirmer = approveConfirmer(record, {
      name,
      wave: { k: waveNumber(gate), name: waveName(target, flags.strings) },
    }, io.env);
    const advice = await adviseApproval(record, records, {
      ...io,
      ledger,
      remote: fetchRemote(choice),
      specParser,
    }, confirmer);
    advice.forEach(log);
    const resume = flags.booleans.resume
      ? await resumeOne({ name, gate }, ledger, io, confirmer)
      : undefined;
    if (flags.booleans.json) {
      io.stdout.write(
        JSON.stringify({
          ledger: ledger.describe(),
          record,
          ...(resume ? { resume } : {}),
        }) + "\n",
      );
    }
    return resume ? resumeExitCode(resume) : OK;
  },
};

/**
 * Who approves when `--by` is not given: the CI actor, then `git config user.email`,
 * then `USER`.
 * @throws {InputError} When none is known.
 */
async function defaultApprover(io: CliIo): Promise<string> {
  const who = await whoRuns(io);
  if (who) return who;
  throw new InputError("cannot tell who approves: pass --by WHO");
}

const NAMED_PLANS = 10;

/** `3 plans: eu (2 to add), us (destructive), ap` — the targets an approval covers. */
function describePlans(plans: readonly PlanSetMember[]): string {
  const shown = plans.slice(0, NAMED_PLANS).map((plan) => {
    const notes = [
      plan.destructive ? "destructive" : "",
      plan.empty ? "no changes" : "",
      plan.summary ?? "",
    ].filter(Boolean);
    return notes.length ? `${plan.target} (${notes.join(", ")})` : plan.target;
  });
  const more = plans.length - shown.length;
  return `${countOf(plans.length, "plan")}: ${shown.join(", ")}${
    more > 0 ? ` and ${more} more` : ""
  }`;
}

/** The wave number of a gate `<gate>-wave-<k>`. */
function waveNumber(gate: string): number {
  return Number(/-wave-([1-9]\d*)$/.exec(gate)?.[1] ?? 0);
}

/** The wave's name when `--spec F --wave K` names it; else empty. */
function waveName(
  target: GateTarget,
  strings: { spec?: string; wave?: string },
): string {
  if (target.spec === undefined || strings.wave === undefined) return "";
  return findWave(target.spec, strings.wave, strings.spec ?? "").name;
}

/**
 * Judges a new approval under the rules at the base its pending fact recorded.
 * Silent when no pending fact of its digest names a spec (the waiting job
 * predates this, or nothing waited).
 * @param approval The approval just recorded.
 * @param records The gate's records before it, oldest first.
 * @param io Git, the working directory, the clock and the ledger.
 * @param confirmer What a forge gate takes the approval for here (the approve
 *   command's provisional confirmer).
 * @returns Lines to print: a warning when it will not count (`warning: this
 *   approval will not count: <why> (the rules at <sha12>: …)`), else on a
 *   forge gate which forge action the gate's job must confirm, and the tally
 *   when several approvers are required; or a note when the rules could not
 *   be read here.
 * @throws {GitError} When git fails unexpectedly.
 */
export async function adviseApproval(
  approval: ApprovalRecord,
  records: readonly LedgerRecord[],
  io: PendingRulesIo,
  confirmer?: ApprovalConfirmer,
): Promise<string[]> {
  const pending = records.filter((r): r is PendingRecord =>
    r.kind === "pending" && r.planDigest === approval.planDigest &&
    r.spec !== undefined
  ).pop();
  if (pending === undefined) return [];
  const all = [...records, approval];
  const read = await decidePending(pending, all, new Map(), io, confirmer);
  if (read.status === "unread") {
    return [`note: not checked against the rules at base: ${read.why}`];
  }
  const { rules: atBase, judged, decision } = read;
  const verdict = judged.verdicts.get(approval.id);
  if (verdict && !verdict.counts) {
    return [
      `warning: this approval will not count: ${verdict.why} (the rules at ${
        read.base.slice(0, 12)
      }: ${describeMode(atBase)}, ${describeApprovers(atBase)})`,
    ];
  }
  const lines = atBase.mode === "forge" && approval.via !== undefined &&
      approval.seal === undefined
    ? [
      `note: the gate's CI job counts it once the forge confirms ${approval.via}`,
    ]
    : [];
  if (atBase.required > 1 && read.set.length > 0 && decision.tally) {
    lines.push(`note: ${tallyLine(decision.tally, approval.planDigest)}`);
  }
  return lines;
}

/** The digest the decision waits for, or why nothing waits. */
export type DecidedPlan =
  | { digest: string }
  /** Nothing waits: why, and the digest the decision holds all the same. */
  | { nothing: string; decided: string };

/**
 * The digest of the waiting decision of the wave `--spec F --wave K` names.
 * @param target The gate, named with `--spec` and `--wave`.
 * @param wave The `--wave` flag.
 * @param file The `--spec` flag.
 * @param cwd The working directory.
 * @returns The digest when the decision waits; otherwise why nothing waits
 *   (`wave 2 "prod" does not wait: its decision is approved`).
 * @throws {InputError} Without `--spec F --wave K`, or when the decision
 *   record is missing, malformed or another wave's.
 */
export async function decidedPlan(
  target: GateTarget,
  wave: string | undefined,
  file: string | undefined,
  cwd: string,
): Promise<DecidedPlan> {
  if (target.spec === undefined || wave === undefined || file === undefined) {
    throw new InputError('"--decided" needs --spec F --wave K');
  }
  const found = findWave(target.spec, wave, file);
  const { decision, path } = await readDecision(target.spec.name, found, cwd);
  if (decision.gate !== target.gate) {
    throw new InputError(
      `the decision "${path}" is for gate "${decision.gate}", not "${target.gate}"`,
    );
  }
  if (decision.status !== "waiting") {
    return {
      nothing:
        `wave ${found.k} "${found.name}" does not wait: its decision (${path}) is ${decision.status}; nothing to approve`,
      decided: decision.digest,
    };
  }
  return { digest: decision.digest };
}

/** The longest `--via` URL, in characters. */
const MAX_VIA = 2048;

/**
 * Checks `--via`: an http(s) URL of at most 2048 characters without control
 * characters or white space.
 * @param via The flag's value.
 * @returns It, unchanged.
 * @throws {InputError} When it is not such a URL.
 * @example
 * ```ts
 * viaUrl("https://github.com/o/r/actions/runs/7"); // the same
 * ```
 */
export function viaUrl(via: string): string {
  if (
    via.length > MAX_VIA || hasControlCharacter(via) || /\s/.test(via) ||
    !/^https?:\/\/[^/]+\/./.test(via)
  ) {
    throw new InputError(
      `"--via" must be the http(s) URL of the run or job that approves, of at most ${MAX_VIA} characters`,
    );
  }
  return via;
}
