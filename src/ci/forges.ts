/**
 * The closed vocabulary of forges chant-wave speaks to (SPEC.md §13) and
 * renders pipelines for (§6.2): the one list of them.
 * @module
 */

/** The forges chant-wave speaks to. */
export const FORGES = ["github", "gitlab", "forgejo"] as const;

/** A forge: `github`, `gitlab` or `forgejo`. */
export type Forge = typeof FORGES[number];

/** Each forge's name as people write it. */
export const FORGE_NAMES: Readonly<Record<Forge, string>> = {
  github: "GitHub",
  gitlab: "GitLab",
  forgejo: "Forgejo",
};
