// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { approveClick, approveLine } from "../../src/summary/approve_link.ts";

const D = `sha256:${"a".repeat(64)}`;
const PROD = { k: 3, name: "prod", gate: "always" };

Deno.test("approveClick() names the click of the CI system it runs in", async (t) => {
  await t.step("GitLab: the approve job of the next approval", () => {
    expect(approveClick("demo", PROD, { GITLAB_CI: "true" }, 2)).toEqual({
      forge: "gitlab",
      job: "wave-3-prod-approve-2",
    });
  });
  await t.step("GitHub: the approve workflow, linked", () => {
    expect(
      approveClick("demo", PROD, {
        GITHUB_ACTIONS: "true",
        GITHUB_SERVER_URL: "https://github.com",
        GITHUB_REPOSITORY: "octo/hello",
      }, 1),
    ).toEqual({
      forge: "github",
      workflow: "demo.approve.yml",
      url: "https://github.com/octo/hello/actions/workflows/demo.approve.yml",
    });
  });
  await t.step("outside CI, or a wave without a click path: none", () => {
    expect(approveClick("demo", PROD, {}, 1)).toBeUndefined();
    expect(
      approveClick(
        "demo",
        { ...PROD, gate: "never" },
        { GITLAB_CI: "true" },
        1,
      ),
    ).toBeUndefined();
  });
});

Deno.test("approveLine() says the click before the command line", () => {
  const gitlab = { forge: "gitlab", job: "wave-3-prod-approve-1" } as const;
  const github = { forge: "github", workflow: "demo.approve.yml" } as const;
  const forgejo = { forge: "forgejo", workflow: "demo.approve.yml" } as const;
  expect(approveLine(gitlab, "demo", 3, D, false)).toBe(
    "approve on GitLab: play the manual job wave-3-prod-approve-1 in this pipeline",
  );
  expect(approveLine(github, "demo", 3, D, false)).toBe(
    `approve on GitHub: run the workflow "chant-wave demo approve" with wave 3 and digest ${D}`,
  );
  expect(approveLine(forgejo, "demo", 3, D, false)).toBe(
    `approve on Forgejo: run the workflow "chant-wave demo approve" with wave 3 and digest ${D}`,
  );
  // A sealed gate counts only signatures: a click only lets GitLab go on.
  expect(approveLine(gitlab, "demo", 3, D, true)).toBe(
    "approve with a signature (below), then play the manual job wave-3-prod-approve-1 in this pipeline to go on",
  );
  expect(approveLine(github, "demo", 3, D, true)).toBeUndefined();
});
