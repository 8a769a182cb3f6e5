/**
 * The version chant-wave prints for `--version`; a test keeps it equal to deno.json's.
 * @module
 */

/** The released version. */
export const VERSION = "0.1.0";
