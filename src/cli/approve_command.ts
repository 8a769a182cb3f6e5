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
import { OK, WAITING } from "../exit_codes.ts";
import { newestPendingDigest } from "../gate/decide_gate.ts";
import { approvedLines } from "../gate/gate_messages.ts";
import {
  type ApprovalRecord,
  approvalRecord,
  newStamp,
  type RecordFields,
  type RecordStamp,
} from "../gate/records.ts";
import type { Ledger } from "../ledger/ledger.ts";
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
import { delimiter } from "node:path";
import { checkoutOf, programOnPath, trustedPath } from "../fs/program_path.ts";
import {
  GATE_SPEC_FLAG,
  jsonFlag,
  LEDGER_FLAG,
  parseFlags,
  positiveIntFlag,
  WAVE_FLAG,
} from "./_flags.ts";
import {
  adviceLines,
  countApprovals,
  countedOf,
  onceConfirmer,
  standingApproval,
} from "./_approval_count.ts";
import { commandLedger, fetchRemote, openLedger } from "./_open_ledger.ts";
import {
  findWave,
  type GateTarget,
  gateTarget,
  requireKnownGate,
} from "./_gate_target.ts";
import { resumeExitCode, resumeOne } from "./resume_command.ts";
import { hasControlCharacter } from "../console/visible.ts";
import { readDecision } from "../run/verify_decision.ts";
import { approveClick, approveLine } from "../summary/approve_link.ts";
import type { Wave } from "../spec/types.ts";

/** The `approve` command. */
export const approveCommand: Command = {
  name: "approve",
  summary: "approve a gate for one set of plans",
  usage: [
    "NAME GATE | --spec --wave [--plan | --decided [--need]] [--by] [--note]\n" +
    "[--via] [--sign] [--during-freeze] [--ledger] [--resume] [--json]",
  ],
  about: [
    "Records an approval of gate GATE of rollout NAME for exactly one set digest:",
    "--plan, or the digest of the newest pending fact of the gate. A job whose",
    "fresh plans differ refuses it. An approver whose approval of those plans",
    "counts already records nothing new. When several approvers are required",
    "and some are still missing, --resume restarts nothing yet.",
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
      name: "need",
      value: { name: "N" },
      description:
        "with --decided: exit 3 unless N distinct approvals of the plans\n" +
        "count once this one is recorded (GitLab's approve job N)",
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
    {
      name: "during-freeze",
      description:
        "let this digest through a freeze window of the wave (docs/timing.md);\n" +
        "on a forge gate only a sealed approval does (with --sign)",
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
    const target = await gateTarget("approve", flags, io);
    const { name, gate } = target;
    const choice = await commandLedger(
      "approve",
      flags.strings.ledger,
      target.named,
      io,
    );
    const ledger = await openLedger(choice, io);
    let plan = flags.strings.plan;
    const via = flags.strings.via === undefined
      ? undefined
      : viaUrl(flags.strings.via);
    let need = positiveIntFlag(flags, "need");
    let duringFreeze = flags.booleans["during-freeze"] === true;
    // Set when the play records all the same though nothing waits.
    let allTheSame = false;
    // Set when the digest comes from a decision record (`--decided`).
    let fromRecord = false;
    if (need !== undefined && !flags.booleans.decided) {
      throw new InputError('"--need" goes with "--decided"');
    }
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
        // Nothing waits: no approval is missing.
        need = undefined;
        if (via === undefined) return OK;
        // One action approves once: the play still records, for the plans
        // decided, so no other record can name this run or job.
        lineLog(io.stderr)(
          `recording this approval of the decided plans all the same: a record naming this run or job may stand for no other plans`,
        );
        allTheSame = true;
      }
      plan = "nothing" in decided ? decided.decided : decided.digest;
      fromRecord = !("nothing" in decided);
      if ("freeze" in decided && decided.freeze !== undefined) {
        // Played during a freeze, the click is what lets the plans through.
        lineLog(io.stderr)(
          `decided while ${decided.freeze}: this approval is given --during-freeze`,
        );
        duringFreeze = true;
      }
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
    if (fromRecord && pending !== digest) {
      // A decision record is a file of the working tree, which a change can
      // commit: it may only point at what the gate itself waits for.
      throw new InputError(
        `gate "${gate}" of "${name}" waits for ${
          pending ?? "no plan"
        }, not the decided ${digest}: the decision record is not the gate's; approve with --plan as the waiting job printed it`,
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
    const wave = waveOf(target, flags.strings);
    const fields = {
      name,
      gate,
      planDigest: digest,
      by,
      ...(note === undefined ? {} : { note }),
      ...(url === undefined ? {} : { url }),
      ...(via === undefined ? {} : { via }),
      ...(duringFreeze ? { duringFreeze: true as const } : {}),
    };
    // The forge confirms an approve run or job only once it finished: this
    // one counts as recorded, the gate's others as the forge says (§13.1).
    const confirmer = onceConfirmer(approveConfirmer(
      approvalRecord(fields, stamp),
      { name, wave: { k: waveNumber(gate), name: wave?.name ?? "" } },
      io.env,
    ));
    const judging = {
      ...io,
      ledger,
      remote: fetchRemote(choice),
      specParser,
    };
    const before = await countApprovals(digest, records, judging, confirmer);
    // A spent approval stands for nothing: what the warning above promises
    // is a new record.
    const standing = allTheSame || used !== undefined
      ? undefined
      : standingApproval(by, digest, before, records, fields.duringFreeze);
    let count = before;
    let record: ApprovalRecord;
    if (standing) {
      record = standing.approval;
      log(
        `${by} approved ${record.planDigest} already at ${record.timestamp}; ${
          countedOf(before, digest)?.counted
        } of ${standing.tally.required} approvals`,
      );
    } else {
      record = await recordApproval(fields, stamp, sign, ledger, io);
      if (plans) log(`  it covers ${describePlans(plans)}`);
      log(`  recorded in ${ledger.describe()}`);
      if (via) log(`  via ${via}`);
      if (record.seal) {
        const fingerprint = await sshKeyFingerprint(
          parseSshPublicKeyLine(record.seal.publicKey),
        );
        log(`signed as ${record.seal.principal} with ${fingerprint}`);
      }
      count = await countApprovals(
        digest,
        [...records, record],
        judging,
        confirmer,
      );
      adviceLines(record, count).forEach(log);
    }
    const counted = countedOf(count, digest);
    const short = counted !== undefined && counted.counted < counted.required;
    if (counted !== undefined && (short || counted.required > 1)) {
      log(
        short ? `${counted.line}; waiting for another approver` : counted.line,
      );
    }
    const missing = need !== undefined && (counted?.counted ?? 0) < need;
    if (short && !missing && wave !== undefined) {
      // The next approver's click, on the forge this runs on.
      const click = approveClick(name, wave, io.env, counted.counted + 1);
      const next = click && approveLine(
        click,
        name,
        wave.k,
        digest,
        count.status === "judged" && count.pending.rules.mode === "sealed",
      );
      if (next) log(next);
    }
    if (missing) {
      const job = io.env.CI_JOB_NAME ?? "this job";
      log(
        counted === undefined
          ? `error: ${job} passes once ${need} approvals count, which cannot be judged here: ${
            count.status === "unread"
              ? count.why
              : "no pending fact of these plans names its spec"
          }`
          : `error: ${job} passes once ${need} approvals count; retry it as an approver other than ${by}`,
      );
      return WAITING;
    }
    const resume = flags.booleans.resume && !short
      ? await resumeOne({ name, gate }, ledger, io, confirmer)
      : undefined;
    if (flags.booleans.json) {
      io.stdout.write(
        JSON.stringify({
          ledger: ledger.describe(),
          record,
          ...(standing ? { already: true } : {}),
          ...(resume ? { resume } : {}),
        }) + "\n",
      );
    }
    return resume ? resumeExitCode(resume) : OK;
  },
};

/**
 * Signs (with `--sign`) and writes the approval, and says so.
 * @returns The record as written.
 */
async function recordApproval(
  fields: RecordFields<ApprovalRecord>,
  stamp: RecordStamp,
  sign: { value?: string } | undefined,
  ledger: Ledger,
  io: CliIo,
): Promise<ApprovalRecord> {
  const { name, gate, planDigest, by } = fields;
  // A seal signs the git ledger's counter at the tip read: the approval
  // reaches the branch at that number or later (`Seal.ledger`).
  const counter = sign === undefined ? undefined : (await ledger.mark()).next;
  const seal = sign === undefined ? undefined : await signApproval({
    approval: {
      name,
      gate,
      planDigest,
      by,
      timestamp: new Date(stamp.now).toISOString(),
      ...(counter === undefined ? {} : { ledger: counter }),
      ...(fields.duringFreeze ? { duringFreeze: true } : {}),
    },
    principal: by,
    key: await resolveSigningKey(sign.value, io),
    ...signerProgram(io),
  });
  const record = approvalRecord({
    ...fields,
    ...(seal === undefined ? {} : { seal }),
  }, stamp);
  await ledger.write(record);
  approvedLines(name, gate, planDigest, by).forEach(lineLog(io.stderr));
  return record;
}

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

/** The wave when `--spec F --wave K` names it. */
function waveOf(
  target: GateTarget,
  strings: { spec?: string; wave?: string },
): Wave | undefined {
  if (target.spec === undefined || strings.wave === undefined) return undefined;
  return findWave(target.spec, strings.wave, strings.spec ?? "");
}

/** The digest the decision waits for, or why nothing waits. */
export type DecidedPlan =
  /** It waits: the digest, and the freeze window that held, if one did. */
  | { digest: string; freeze?: string }
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
  return {
    digest: decision.digest,
    ...(decision.freeze ? { freeze: decision.freeze } : {}),
  };
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

/**
 * The ssh-keygen an approval is signed with, and its environment: found once
 * on the absolute directories of `PATH` outside the checkout, as chant-wave's
 * git is, and run with that `PATH`. A checkout of the change holds what its
 * author committed: an `ssh-keygen` there (a `bin/` an approver's `PATH` names,
 * `./node_modules/.bin`) would be handed the approver's key.
 */
function signerProgram(
  io: Pick<CliIo, "env" | "cwd">,
): { sshKeygen: string; env: CliIo["env"] } {
  const checkout = checkoutOf(io.cwd);
  return {
    sshKeygen: programOnPath("ssh-keygen", io.env.PATH, checkout) ??
      "ssh-keygen",
    env: {
      ...io.env,
      PATH: trustedPath(io.env.PATH, checkout).join(delimiter),
    },
  };
}
