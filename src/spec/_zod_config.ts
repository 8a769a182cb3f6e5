/**
 * zod's configuration for the spec's schemas. Every module that builds a
 * schema imports this one for its effect, so the configuration is in place
 * before the first schema is built (zod reads some of it at construction). It
 * configures zod; it defines no schema.
 * @module
 */

import { config, type core } from "zod";

/**
 * zod's containers support input that refers to itself: its default memoizer
 * wraps every container when it is built and, on its first parse, walks the
 * container's subtree looking for recursion. A spec document comes from
 * `JSON.parse` or the JSONC parser, a tree that cannot hold a cycle, so this
 * memoizer does nothing (the first parse of a one-run spec, in the compiled
 * binary: about 2.5 → 1.6 ms CPU).
 */
const treesOnly: core.$ZodMemoizer = {
  attach() {},
  guard() {},
  alloc<T extends object>(_inst: unknown, _payload: unknown, empty: T): T {
    return empty;
  },
};

// zod compiles each object schema into a function on its first parse; a
// command parses one spec once, so interpreting is cheaper: `check` of a
// one-run spec 64 → 60 ms CPU, of 5,000 runs 167 → 148 ms (bun, this machine).
config({ jitless: true, memoizer: treesOnly });
