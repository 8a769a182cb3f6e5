/**
 * Who is one person on a sealed gate (SPEC.md §12, "a key is one person"): the
 * connected groups of the relation "this key is listed for this principal" over
 * every signers file read at base, and "this key signed as this principal" over
 * the seals that verified. Every principal listed for one key and every key
 * listed for one principal are one identity, so two approvals signed with one
 * key, or by two principals of one key, are one approver. Pure; verifying seals
 * is `verify_seal.ts`'s job, counting approvers the tally's.
 *
 * A principal pattern (`*@example.com`) is grouped by its text, as written: two
 * keys listed for one pattern are one identity (the strictest reading, since
 * either holder may sign as the same people). Negated patterns (`!eve@x`) list
 * nobody and join nothing. A forge login `login:ann` and a principal `ann`,
 * both listed, are one identity, as they name one CI actor.
 * @module
 */

import type { AllowedSigners } from "./allowed_signers.ts";
import { formatSshPublicKey } from "./ssh_public_key.ts";

/** The prefix of a forge login among principals. */
const LOGIN = "login:";

/** One person: the keys and principals that are the same approver. */
export interface SignerIdentity {
  /** A stable name for the group (its smallest member): distinctness is by it. */
  readonly id: string;
  /** The keys, each `<type> <base64>`, sorted. */
  readonly keys: readonly string[];
  /** The principals and principal patterns, normalised, sorted. */
  readonly principals: readonly string[];
}

/** A seal that verified: the key (`<type> <base64>`) that signed, as whom. */
export interface SignedAs {
  /** The key, `<type> <base64>` (`formatSshPublicKey`). */
  readonly key: string;
  /** The verified principal, normalised. */
  readonly principal: string;
}

/** A disjoint-set forest over names (`key:…`, `principal:…`). */
class Groups {
  readonly #parent = new Map<string, string>();

  find(node: string): string {
    let root = node;
    for (;;) {
      const up = this.#parent.get(root);
      if (up === undefined || up === root) break;
      root = up;
    }
    if (!this.#parent.has(node)) this.#parent.set(node, node);
    for (let at = node; at !== root;) {
      const up = this.#parent.get(at)!;
      this.#parent.set(at, root);
      at = up;
    }
    return root;
  }

  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.#parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }

  has(node: string): boolean {
    return this.#parent.has(node);
  }

  nodes(): string[] {
    return [...this.#parent.keys()];
  }
}

/**
 * Groups keys and principals into identities.
 * @param files The signers files read at base (every one of them: the
 *   strictest grouping is over their union).
 * @param signed The seals that verified, each with its key and principal.
 * @returns The identity of each key, by `<type> <base64>`; a key neither
 *   listed nor signing has none.
 * @example
 * ```ts
 * const ids = signerIdentities(
 *   [parseAllowedSigners("ann@example.com,login:ann ssh-ed25519 AAAA…A\nbob@example.com ssh-ed25519 AAAA…A\n")],
 *   [],
 * );
 * ids.get("ssh-ed25519 AAAA…A")?.principals;
 * // ["ann@example.com", "bob@example.com", "login:ann"]
 * ```
 */
export function signerIdentities(
  files: readonly AllowedSigners[],
  signed: readonly SignedAs[],
): Map<string, SignerIdentity> {
  const groups = new Groups();
  for (const file of files) {
    for (const line of file.signers) {
      const key = `key:${formatSshPublicKey(line.key)}`;
      groups.find(key);
      for (const { negated, pattern } of line.principals) {
        if (!negated && pattern !== "") {
          groups.union(key, `principal:${pattern}`);
        }
      }
    }
  }
  for (const seal of signed) {
    groups.union(`key:${seal.key}`, `principal:${seal.principal}`);
  }
  for (const node of groups.nodes()) {
    const bare = node.startsWith(`principal:${LOGIN}`)
      ? `principal:${node.slice(`principal:${LOGIN}`.length)}`
      : undefined;
    if (bare !== undefined && groups.has(bare)) groups.union(node, bare);
  }
  const members = new Map<string, { keys: string[]; principals: string[] }>();
  for (const node of groups.nodes()) {
    const root = groups.find(node);
    const group = members.get(root) ?? { keys: [], principals: [] };
    members.set(root, group);
    if (node.startsWith("key:")) group.keys.push(node.slice("key:".length));
    else group.principals.push(node.slice("principal:".length));
  }
  const identities = new Map<string, SignerIdentity>();
  for (const [root, group] of members) {
    const identity: SignerIdentity = {
      id: root,
      keys: group.keys.sort(),
      principals: group.principals.sort(),
    };
    for (const key of identity.keys) identities.set(key, identity);
  }
  return identities;
}
