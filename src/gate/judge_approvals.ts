/**
 * Judges each approval of a gate under the rules at base (SPEC.md §12, §12.1):
 * on a sealed gate its seal must verify against every signers file read at base,
 * its principal is the verified signer and its approver is the signer identity
 * (every key and principal listed together is one person); on a forge gate a
 * signed approval is judged so too, and an unsigned one counts only as the
 * forge confirmed it in this job (its principal the login the forge shows); on
 * a ledger gate its principal is its `by`. Then `allowed` must accept the
 * principal, and with `selfApproval: false` no principal of the approver may be
 * one of the change's authors or committers, nor a login of a CI actor of a job
 * that ran the change. The patterns of `allowed` are a principal, or one where
 * `*` stands for any characters within the word, compared after NFKC, trimming
 * and lowercasing. Pure but for WebCrypto (seals verify asynchronously); the
 * signers files, the change's people and the actors are read by edges and
 * passed in.
 * @module
 */

import type { ApprovalVerdict, GateRules } from "./gate_tally.ts";
import type { ApprovalRecord } from "./records.ts";
import type { AllowedSigners } from "../seal/allowed_signers.ts";
import { type Confirmation, forgeVerdict } from "./confirm_approvals.ts";
import { normalisePrincipal } from "../seal/seal.ts";
import { globMatches } from "../seal/pattern_list.ts";
import {
  signerIdentities,
  type SignerIdentity,
} from "../seal/signer_identities.ts";
import { verifySeal } from "../seal/verify_seal.ts";
import type { ApprovalRules, SignersRef } from "./approval_at_base.ts";

/** What approvals are judged by. */
export interface JudgeInput {
  /** The rules at base. */
  rules: ApprovalRules;
  /** The signers file of each of `rules.signers`, as read (sealed gates). */
  signers: readonly SignersAtBase[];
  /** The authors and committers of the change (for `selfApproval: false`). */
  people: ChangePeople;
  /** The forge logins of the CI actors of the jobs that ran the change. */
  actors: readonly string[];
  /** The verifying time, milliseconds since the Unix epoch. */
  now: number;
  /**
   * What the forge confirmed in this job about the unsigned approvals of a
   * `forge` gate, by id (absent: the forge was not asked here).
   */
  confirmed?: ReadonlyMap<string, Confirmation>;
}

/** A name, e-mail or login of the change's own people, normalised, and why it does not approve. */
interface SelfMark {
  who: string;
  why: string;
}

/** The prefix of a forge login among principals (`login:ann`). */
const LOGIN = "login:";

/**
 * The change's own people: authors, then committers (each by name and e-mail),
 * then CI actors (each as `<login>` and `login:<login>`).
 */
function selfMarks(input: JudgeInput): SelfMark[] {
  const marks: SelfMark[] = [];
  const add = (who: string, why: string) => {
    const principal = normalisePrincipal(who);
    if (principal !== "" && !marks.some((m) => m.who === principal)) {
      marks.push({ who: principal, why });
    }
  };
  if (input.people.status === "known") {
    for (const role of ["author", "committer"] as const) {
      for (const p of input.people.people) {
        if (p.role === role) add(p.who, `the change's ${role}`);
      }
    }
  }
  for (const actor of input.actors) {
    const login = normalisePrincipal(actor).replace(/^login:/, "");
    add(login, "started the job that ran this change");
    add(`${LOGIN}${login}`, "started the job that ran this change");
  }
  return marks;
}

/**
 * Why an approver is one of the change's own people: the first mark one of its
 * principals names (patterns of a sealed identity match as the signers file's
 * glob does), said with the principal when it is not the approval's own.
 */
function selfReason(
  principal: string,
  identity: SignerIdentity | undefined,
  marks: readonly SelfMark[],
): string | undefined {
  const principals = identity?.principals ?? [principal];
  for (const mark of marks) {
    const named = principals.find((p) =>
      identity === undefined ? p === mark.who : globMatches(mark.who, p)
    );
    if (named === undefined) continue;
    return named === principal ? mark.why : `${mark.why}, as ${named}`;
  }
  return undefined;
}

/** A verdict, and the key that signed it when its seal verified. */
interface Judged {
  verdict: ApprovalVerdict;
  key?: string;
}

/**
 * The principal of an approval on this gate, or why it does not count: the
 * verified signer of a sealed gate (the seal must verify against every signers
 * file), else its `by`.
 */
async function principalOf(
  approval: ApprovalRecord,
  input: JudgeInput,
): Promise<Judged> {
  const claimed = normalisePrincipal(approval.seal?.principal ?? approval.by);
  const refused = (why: string): Judged => ({
    verdict: {
      principal: claimed,
      display: claimed || approval.by,
      counts: false,
      why,
    },
  });
  if (input.rules.mode === "ledger") {
    const principal = normalisePrincipal(approval.by);
    return {
      verdict: {
        principal,
        display: approval.by,
        counts: true,
        ...(principal.startsWith(LOGIN)
          ? { identity: principal.slice(LOGIN.length) }
          : {}),
      },
    };
  }
  if (input.rules.mode === "forge" && approval.seal === undefined) {
    return { verdict: forgeVerdict(approval, input.confirmed) };
  }
  if (approval.seal === undefined) return refused("not signed");
  let verified:
    | { principal: string; fingerprint: string; key: string }
    | undefined;
  for (const signers of input.signers) {
    if (signers.status === "missing") return refused(signers.why);
    const verdict = await verifySeal({
      approval,
      seal: approval.seal,
      signers: signers.file,
      now: input.now,
    });
    if (!verdict.ok) return refused(verdict.reason);
    verified = {
      principal: verdict.principal,
      fingerprint: verdict.fingerprint,
      key: verdict.publicKey,
    };
  }
  if (verified === undefined) {
    return refused("the gate is sealed, and no signers file is named at base");
  }
  const { principal, fingerprint, key } = verified;
  return {
    verdict: {
      principal,
      display: principal,
      counts: true,
      sealedBy: { principal, fingerprint },
    },
    key,
  };
}

/** Every principal listed in the signers files read, with its identity. */
function principalIdentities(
  identities: ReadonlyMap<string, SignerIdentity>,
): Map<string, SignerIdentity> {
  const byPrincipal = new Map<string, SignerIdentity>();
  for (const identity of identities.values()) {
    for (const principal of identity.principals) {
      byPrincipal.set(principal, identity);
    }
  }
  return byPrincipal;
}

/**
 * The identity a signers file lists an unsigned approver under: a login the
 * forge confirmed (`ann`) or a `--by` (`login:ann`, `ann@example.com`) is the
 * person whose key lists it, so one person's review and signed approval count
 * once (SPEC.md §12, "a key is one person").
 */
function listedIdentity(
  principal: string,
  byPrincipal: ReadonlyMap<string, SignerIdentity>,
): SignerIdentity | undefined {
  const bare = principal.startsWith(LOGIN)
    ? principal.slice(LOGIN.length)
    : principal;
  return byPrincipal.get(principal) ?? byPrincipal.get(bare) ??
    byPrincipal.get(`${LOGIN}${bare}`);
}

/** The identity of each signing key over every signers file read. */
function identitiesOf(
  judged: readonly Judged[],
  input: JudgeInput,
): Map<string, SignerIdentity> {
  const files: AllowedSigners[] = [];
  for (const signers of input.signers) {
    if (signers.status === "read") files.push(signers.file);
  }
  return signerIdentities(
    files,
    judged.flatMap(({ verdict, key }) =>
      key === undefined ? [] : [{ key, principal: verdict.principal }]
    ),
  );
}

/**
 * Judges every approval under the rules at base. On a sealed gate the approvers
 * are signer identities: approvals signed with one key, or by principals listed
 * for one key, are one approver, and with `selfApproval: false` an approval does
 * not count when any principal of its identity (a `login:` beside an e-mail, a
 * pattern that matches) is one of the change's people or actors.
 * @param approvals The approvals to judge (those that count in the ledger).
 * @param input The rules, the signers files, the change's people and actors, the time.
 * @returns The gate rules: `required`, and each approval's verdict by id.
 * @throws {Error} Only when WebCrypto lacks an algorithm (a bug of the build).
 * @example
 * ```ts
 * const rules = await judgeApprovals(approvals, { rules, signers, people, actors, now });
 * rules.verdicts.get(approval.id)?.why; // e.g. "not signed"
 * ```
 */
export async function judgeApprovals(
  approvals: readonly ApprovalRecord[],
  input: JudgeInput,
): Promise<GateRules> {
  const judged: Judged[] = [];
  for (const approval of approvals) {
    judged.push(await principalOf(approval, input));
  }
  const identities = identitiesOf(judged, input);
  const marks = input.rules.selfApproval ? [] : selfMarks(input);
  const unknownPeople = !input.rules.selfApproval &&
      input.people.status === "too-long"
    ? `the change has more than ${MAX_CHANGE_COMMITS} commits, so who made it is not known`
    : undefined;
  const verdicts = new Map<string, ApprovalVerdict>();
  const byPrincipal = principalIdentities(identities);
  approvals.forEach((approval, i) => {
    const { verdict, key } = judged[i];
    const identity = key === undefined
      ? listedIdentity(verdict.principal, byPrincipal)
      : identities.get(key);
    const passesFreeze = approval.duringFreeze === true &&
      (input.rules.mode !== "forge" || verdict.sealedBy !== undefined);
    const judgedVerdict = {
      ...verdict,
      ...(identity ? { identity: identity.id } : {}),
      ...(passesFreeze ? { passesFreeze } : {}),
    };
    const why = !verdict.counts
      ? undefined
      : verdict.principal === ""
      ? "names no approver"
      : !principalAllowed(verdict.principal, input.rules.allowed)
      ? "not in approvers.allowed"
      : unknownPeople ?? selfReason(verdict.principal, identity, marks);
    verdicts.set(
      approval.id,
      why === undefined
        ? judgedVerdict
        : { ...judgedVerdict, counts: false, why },
    );
  });
  return { required: input.rules.required, verdicts };
}

/** The most commits read; a longer range is reported as too long. */
export const MAX_CHANGE_COMMITS = 20_000;

/** One person of the change, and in which role. */
export interface ChangePerson {
  /** A name or an e-mail address, as git records it. */
  who: string;
  /** `author` or `committer`. */
  role: "author" | "committer";
}

/** The people of a change, or why they are unknown. */
export type ChangePeople =
  | {
    status: "known";
    people: ChangePerson[];
    /** The change's commits (full shas), newest first. */
    commits: string[];
  }
  | { status: "too-long"; commits: number };

/** A signers file as found at a commit. */
export type SignersAtBase =
  /** Read and parsed (its problems are lines left out). */
  | { ref: SignersRef; status: "read"; file: AllowedSigners }
  /** Absent, or unusable: `why` says so, and the gate counts no seal. */
  | { ref: SignersRef; status: "missing"; why: string };

/**
 * Tells whether a principal matches one pattern. `*` matches any run of
 * characters, none included; every other character is literal. A principal that
 * holds white space matches nothing, since a pattern holds none and `*` stays
 * within a word.
 * @param principal The principal, normalised.
 * @param pattern The pattern as the spec writes it (normalised here).
 * @returns `true` when the whole principal matches.
 * @example
 * ```ts
 * principalMatches("ann@platform.example", "*@platform.example"); // true
 * principalMatches("ann@example.com", "*@platform.example"); // false
 * ```
 */
export function principalMatches(principal: string, pattern: string): boolean {
  if (principal === "" || /\s/u.test(principal)) return false;
  return globMatches(principal, normalisePrincipal(pattern), false);
}

/**
 * Tells whether a principal passes every `allowed` list of the governing waves:
 * each list must hold a pattern it matches (the strictest rule is their
 * intersection). No list: anyone is allowed. A forge login `login:<name>`
 * matches `login:` patterns (`login:ann`, `login:*`) and, as before logins had
 * their prefix, a bare pattern of the name (`ann`).
 * @param principal The principal, normalised.
 * @param allowed One list of patterns per wave that restricts approvers.
 * @returns `true` when every list allows it.
 * @example
 * ```ts
 * principalAllowed("ann@a.example", [["*@a.example"], ["ann@*", "bob@*"]]); // true
 * principalAllowed("bob@b.example", [["*@a.example"]]); // false
 * principalAllowed("anyone", []); // true
 * principalAllowed("login:ann", [["login:*"]]); // true
 * ```
 */
export function principalAllowed(
  principal: string,
  allowed: readonly (readonly string[])[],
): boolean {
  const names = principal.startsWith(LOGIN)
    ? [principal, principal.slice(LOGIN.length)]
    : [principal];
  return allowed.every((list) =>
    list.some((pattern) =>
      names.some((name) => principalMatches(name, pattern))
    )
  );
}
