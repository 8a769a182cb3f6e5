// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { gateName } from "../../src/gate/gate_messages.ts";

Deno.test("gateName() is the spec's gate prefix, -wave-, and the wave's number", () => {
  expect(gateName({ gate: "tf" }, 2)).toBe("tf-wave-2");
  expect(gateName({ gate: "db" }, 12)).toBe("db-wave-12");
});
