/**
 * The forges chant-wave renders pipelines for and the shape of a rendered file
 * (SPEC.md §6.2). Only names and types; the renderers live beside it.
 * @module
 */

/** The forges `chant-wave pipeline` renders for. */
export const FORGES = ["github", "gitlab", "forgejo"] as const;
/** A forge. */
export type Forge = typeof FORGES[number];

/** One file a renderer produces. */
export interface RenderedFile {
  /** Where it goes, relative to the repository root, `/`-separated. */
  path: string;
  /** Its whole text, starting with the "generated" comment line. */
  text: string;
}
