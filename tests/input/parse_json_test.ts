// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { parseJson } from "../../src/input/parse_json.ts";
import { ShapeError } from "../../src/input/shape_error.ts";

/** The ShapeError `read` throws: its message, source and field. */
function refusal(read: () => unknown) {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ShapeError);
    const { message, source, field } = error as ShapeError;
    return { message, source, field };
  }
  throw new Error("expected a ShapeError");
}

Deno.test("parseJson() parses, and names the source of text that is not JSON", async (t) => {
  await t.step("valid JSON", () => {
    expect(parseJson('{"a":[1,null]}')).toEqual({ a: [1, null] });
  });
  await t.step("not JSON, with a source", () => {
    const got = refusal(() => parseJson("{", { source: "x.json" }));
    expect(got.message).toMatch(/^x\.json: is not JSON: \S/);
    expect(got).toMatchObject({ source: "x.json", field: "" });
  });
  await t.step("not JSON, in the caller's words", () => {
    expect(
      refusal(() => parseJson("", { invalid: "record is not valid JSON" }))
        .message,
    ).toMatch(/^record is not valid JSON: /);
  });
});
