// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { hooksReportText } from "../../src/hooks/hooks_report.ts";

Deno.test("hooksReportText() writes the §11 keys in order", () => {
  const text = hooksReportText({
    hooks: [{ outcome: "held", name: "infra", point: "before-apply" }],
    approved: true,
    k: 2,
    wave: "prod",
  });
  expect(text).toBe(
    JSON.stringify(
      {
        wave: "prod",
        k: 2,
        approved: true,
        hooks: [{ point: "before-apply", name: "infra", outcome: "held" }],
      },
      null,
      2,
    ) + "\n",
  );
});
