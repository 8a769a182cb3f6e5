/**
 * The edge that reads the base (SPEC.md §4.4): finds the repository and HEAD,
 * takes the spec's path in git (never through links), resolves the base commits
 * by their rules (one trusted commit, or every commit of the chain rule), and
 * reads the spec file as it was at each, parsed once per text. It checks that
 * the spec is a regular file on a link-free path in the work tree, in HEAD and
 * in every base, and that the job runs HEAD's committed copy. Every policy of a
 * job is then decided purely from what this returns, the strictest over the
 * bases winning.
 * @module
 */

import { InputError } from "../errors.ts";
import type { Git } from "../git/git.ts";
import { readTreeFile } from "../git/tree_file.ts";
import { DEFAULT_SIGNERS } from "../spec/types.ts";
import { chainCommits, lastDecidedAncestor } from "./base_chain.ts";
import {
  type BaseSpec,
  baseSpecOf,
  normalisePath,
  type ParseSpecFn,
  type PolicyBase,
} from "../gate/base_spec.ts";
import type { SignersRef } from "../gate/approval_at_base.ts";
import { type ReadAhead, readAhead } from "./read_ahead.ts";
import { resolveBase, type ResolvedBase } from "./resolve_base.ts";
import { invalidBaseLines, newestValidVersion } from "./valid_version.ts";
import {
  refuseLinkedTreePath,
  refuseLinkedWorkTreePath,
  specPathFromTop,
} from "./spec_path.ts";

/** The inputs of {@linkcode readBase}. */
export interface ReadBaseOptions {
  git: Git;
  /** The working directory the spec path is relative to. */
  cwd: string;
  /** The spec file as the user named it (relative to `cwd`, or absolute). */
  specPath: string;
  /** `--base`, when given. */
  flag?: string;
  /** The environment (CI variables name the commit before the push). */
  env: Record<string, string | undefined>;
  /** The full spec parser (`parseSpec`). */
  parse: ParseSpecFn;
  /**
   * The work tree's spec text the job runs: it must equal HEAD's committed copy
   * (unless `dryRun`). Not checked when absent.
   */
  workText?: string;
  /** A dry run may run an uncommitted spec (and says so). */
  dryRun?: boolean;
  /**
   * The commits at which the ledger records a decision of this rollout made
   * under a trusted base, oldest first; read only for the chain rule.
   */
  decisions?: () => Promise<readonly string[]>;
  /**
   * Read a chain that ends at the edge of a shallow checkout as it is, not
   * refuse it: for an approver's command, whose own checkout (the approve
   * workflow's, of the default branch) may be shallow.
   */
  shallowChain?: "read";
}

/** The base of a job: where it is, why, and the spec there. */
export interface BaseRead extends ResolvedBase {
  /** Every commit the rules are read at, with the spec there (as `shas`). */
  bases: PolicyBase[];
  /** The spec at the first base (`sha`). */
  spec: BaseSpec;
  /** HEAD's full sha. */
  head: string;
  /** The repository's top level. */
  top: string;
  /** The spec file's path from the top level, `/`-separated (as read in git). */
  specPath: string;
  /** Lines to log as notes (a dry run of an uncommitted spec). */
  notes: string[];
  /**
   * Reads the spec at another commit (a decision record's base), cached.
   * @throws {InputError} When the spec path is a link or submodule there.
   */
  specAt(sha: string): Promise<BaseSpec>;
  /**
   * The spec at another commit as a base to read rules at, with its file and
   * blob.
   * @throws {InputError} When the spec path is a link or submodule there.
   */
  baseAt(sha: string): Promise<PolicyBase>;
  /** The signers files and the change's people at the bases, read ahead. */
  reads: ReadAhead;
}

/**
 * Resolves the base of a job and reads the spec there. The working copy's spec
 * never decides a rule, so a change cannot loosen the gates that guard it.
 * @param options The git seam, the paths, the flag, the environment, the parser.
 * @returns The base commits, the rule that chose them, the spec at each and HEAD.
 * @throws {InputError} Exit 2 when `cwd` is not in a git work tree, when the spec
 * lies outside the repository, is or passes through a link or submodule in the
 * work tree, HEAD or a base, differs from HEAD's copy, or when the base cannot
 * be resolved (see `resolveBase`).
 * @throws {GitError} When git fails otherwise (a bug or a broken repository).
 */
export async function readBase(options: ReadBaseOptions): Promise<BaseRead> {
  const { git, cwd, specPath } = options;
  const top = await git.topLevel(cwd);
  if (top === undefined) {
    throw new InputError(
      `cannot read the policy of "${specPath}" at base: "${cwd}" is not in a git repository`,
      [
        "the policy is read from the spec as committed at the base commit",
      ],
    );
  }
  const head = await git.resolveCommit("HEAD", top);
  if (head === undefined) {
    throw new InputError(
      `cannot read the policy of "${specPath}" at base: the repository has no commit yet`,
    );
  }
  const fromTop = await specPathFromTop(git, top, cwd, specPath);
  refuseLinkedWorkTreePath(top, fromTop);
  const reader = specReader(git, top, fromTop, options.parse);
  let decisions: Promise<readonly string[]> | undefined;
  const decided = () =>
    decisions ??= options.decisions?.() ?? Promise.resolve([]);
  // Every rule but the chain's asks for the last trusted decision, and the
  // chain for its stops: the ledger is read while the spec is (its failure
  // reaches whoever awaits it, after any error of the spec's).
  decided().catch(() => {});
  const notes = checkHeadCopy(
    await reader.fileAt(head, "HEAD"),
    fromTop,
    options,
  );
  const base = await resolveBase({
    git,
    top,
    head,
    ...(options.flag === undefined ? {} : { flag: options.flag }),
    env: options.env,
    specAt: reader.specAt,
    specPath: fromTop,
    chain: async (parent) =>
      await chainCommits(git, top, parent, fromTop, reader.specAt, {
        env: options.env,
        head,
        decided,
        ledgerRead: options.decisions !== undefined,
        ...(options.shallowChain === undefined
          ? {}
          : { shallowChain: options.shallowChain }),
      }),
  });
  const bases: PolicyBase[] = [];
  const read = async (sha: string) => {
    const at = await reader.baseAt(sha);
    // A base whose spec does not parse may stand on one read already.
    if (!bases.some((b) => b.sha === at.sha)) bases.push(at);
  };
  for (const sha of base.shas) await read(sha);
  const since = base.rule === "chain"
    ? undefined
    : await lastDecidedAncestor(git, top, head, await decided());
  if (since !== undefined && !base.shas.includes(since)) {
    base.shas.push(since);
    base.reason += `, and the last trusted decision ${
      since.slice(0, 12)
    } (the commits since it were never decided)`;
    await read(since);
  }
  notes.push(...invalidBaseLines(bases, fromTop));
  const reads = readAhead(git, top, head);
  await reads.prefetch(bases.map(signersRefOf), {
    people: bases.some(mayForbidSelfApproval),
  });
  return {
    ...base,
    bases,
    spec: bases[0].spec,
    head,
    top,
    specPath: fromTop,
    notes,
    specAt: reader.specAt,
    baseAt: reader.baseAt,
    reads,
  };
}

/**
 * The signers file a base names (its spec's `signers`, else the default), for
 * reading ahead.
 * @param base A base and the spec there.
 * @returns The commit and the normalised path.
 */
export function signersRefOf(base: PolicyBase): SignersRef {
  const named = base.spec.status === "parsed"
    ? normalisePath(base.spec.spec.signers)
    : undefined;
  return { sha: base.sha, path: named ?? DEFAULT_SIGNERS };
}

/**
 * Whether the rules a base's spec gives some wave may forbid self-approval
 * (then `gate_rules.ts` reads the change's people): a spec that does not parse
 * is read as strict as can be; one absent allows it.
 * @param base A base and the spec there.
 * @returns `false` when every rule there allows self-approval.
 */
export function mayForbidSelfApproval(base: PolicyBase): boolean {
  const { spec } = base;
  if (spec.status === "absent") return false;
  if (spec.status !== "parsed") return true;
  return !spec.spec.approvers.selfApproval ||
    spec.spec.waves.some((wave) => !wave.approvers.selfApproval);
}

/** Reads the spec at commits: links refused, each text parsed once. */
function specReader(git: Git, top: string, path: string, parse: ParseSpecFn) {
  const texts = new Map<string | undefined, BaseSpec>();
  const specs = new Map<string, Promise<BaseSpec>>();
  const blobs = new Map<string, string>();
  const fileAt = async (sha: string, where: string) => {
    const found = refuseLinkedTreePath(
      await readTreeFile(git, top, sha, path),
      path,
      where,
    );
    if (found.status === "file") blobs.set(sha, found.blob);
    return found.status === "file" ? found.text : undefined;
  };
  const specAt = (sha: string) => {
    let read = specs.get(sha);
    if (read === undefined) {
      read = fileAt(sha, sha.slice(0, 12)).then((text) => {
        let spec = texts.get(text);
        if (spec === undefined) {
          spec = baseSpecOf(text, path, parse);
          texts.set(text, spec);
        }
        return spec;
      });
      specs.set(sha, read);
    }
    return read;
  };
  const plainBase = async (sha: string): Promise<PolicyBase> => {
    const spec = await specAt(sha);
    const blob = blobs.get(sha);
    return blob === undefined
      ? { sha, spec, file: path }
      : { sha, spec, file: path, blob };
  };
  // An old version with a link on the path is no version to read: skipped.
  const versionAt = (sha: string) =>
    specAt(sha).catch((error): BaseSpec => {
      if (!(error instanceof InputError)) throw error;
      return { status: "unparsable", problem: error.message };
    });
  const bases = new Map<string, Promise<PolicyBase>>();
  const baseAt = (sha: string) => {
    let read = bases.get(sha);
    if (read === undefined) {
      read = plainBase(sha).then(async (base) => {
        if (base.spec.status !== "unparsable") return base;
        const found = await newestValidVersion(git, top, sha, path, versionAt);
        if (found.status === "none") return base;
        return {
          ...await plainBase(found.sha),
          standsFor: { sha, problem: base.spec.problem },
        };
      });
      bases.set(sha, read);
    }
    return read;
  };
  return { fileAt, specAt, baseAt };
}

/**
 * The job runs HEAD's committed spec: the work tree's copy must equal it, but a
 * dry run may try an uncommitted edit (and says so).
 */
function checkHeadCopy(
  atHead: string | undefined,
  path: string,
  options: ReadBaseOptions,
): string[] {
  if (options.workText === undefined || options.workText === atHead) return [];
  const why = atHead === undefined ? "it is not committed at HEAD" : undefined;
  if (options.dryRun) {
    return [
      `note: this dry run reads the work tree's ${path}, which differs from HEAD${
        why ? ` (${why})` : ""
      }; a job runs HEAD's copy`,
    ];
  }
  throw new InputError(
    `${path} differs from HEAD; commit it first`,
    [
      `${
        why ?? "the work tree's copy is not the committed one"
      }: a job runs the spec as committed at HEAD (a dry run may try an uncommitted edit)`,
    ],
  );
}
