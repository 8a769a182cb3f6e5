/**
 * What the OpenTofu end-to-end tests share (SPEC.md §15): the stand-in `tofu`
 * first on PATH (tests/fixtures/tofu/tofu, serving real plan documents), the
 * plan documents of tests/fixtures/terraform-plans/, and a spec of the `tool`
 * shorthand. Tests only.
 * @module
 */

/** The folder of the stand-in `tofu` (and the README's plan.sh). */
export const FAKE_DIR = new URL("../fixtures/tofu/", import.meta.url).pathname
  .replace(/\/$/, "");

/** The PATH that finds the stand-in `tofu` first. */
export const ENV = { PATH: `${FAKE_DIR}:/usr/bin:/bin` };

const PLANS = new URL("../fixtures/terraform-plans/", import.meta.url);

/**
 * A real plan document's text.
 * @param name Its file name in tests/fixtures/terraform-plans/.
 * @returns The text.
 */
export function planFixture(name: string): string {
  return Deno.readTextFileSync(new URL(name, PLANS));
}

/**
 * moved_block.json without its move: one resource, ["no-op"], nothing to do.
 * @returns The plan document's text.
 */
export function noOpPlan(): string {
  const doc = JSON.parse(planFixture("moved_block.json"));
  delete doc.resource_changes[0].previous_address;
  return JSON.stringify(doc);
}

/**
 * A spec `tf` whose waves plan and apply with `tofu -chdir=live/<target>`.
 * @param waves The waves.
 * @returns The spec.
 */
export function toolSpec(
  waves: Record<string, unknown>[],
): Record<string, unknown> {
  return {
    name: "tf",
    tool: { kind: "opentofu", dir: "live/{target}" },
    heartbeat: "0",
    waves,
  };
}
