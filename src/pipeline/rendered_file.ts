/**
 * The shape of a rendered file (SPEC.md §6.2), and the forges it is rendered
 * for (the one list, `forge/forges.ts`). Only names and types; the renderers
 * live beside it.
 * @module
 */

export { type Forge, FORGES } from "../ci/forges.ts";

/** One file a renderer produces. */
export interface RenderedFile {
  /** Where it goes, relative to the repository root, `/`-separated. */
  path: string;
  /** Its whole text, starting with the "generated" comment line. */
  text: string;
}
