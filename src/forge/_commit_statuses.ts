/**
 * Hands recorded plans to a forge as commit statuses (SPEC.md §13): one
 * `success` status per wave on the merged head, its context naming the wave
 * and its description the digest. GitHub and Forgejo take the same request;
 * the clients differ only in how they list them back. An edge over the
 * forge's HTTP client.
 * @module
 */

import type { ForgeHttp } from "./forge_http.ts";
import {
  describeStatuses,
  type RecordedPlans,
  statusContext,
} from "./plans_handoff.ts";

/**
 * Posts one status per wave of `plans` to `path`.
 * @param http The forge's HTTP client.
 * @param path The statuses endpoint of the head commit.
 * @param plans The recorded plans.
 * @param targetUrl Where each status links (the job), when known.
 * @returns What was handed, for the log.
 * @throws {ForgeError} When the forge refuses a status.
 */
export async function postPlanStatuses(
  http: ForgeHttp,
  path: string,
  plans: RecordedPlans,
  targetUrl?: string,
): Promise<string> {
  for (const wave of plans.waves) {
    await http.request("POST", path, {
      body: {
        state: "success",
        context: statusContext(plans.name, wave.wave),
        description: wave.digest,
        ...(targetUrl ? { target_url: targetUrl } : {}),
      },
    });
  }
  return describeStatuses(plans);
}
