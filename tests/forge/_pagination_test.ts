// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { nextLink, nextPageUrl } from "../../src/forge/forge_http.ts";

Deno.test("nextLink() finds rel=next in a Link header", async (t) => {
  const cases: [string, string | null, string | undefined][] = [
    [
      "GitHub",
      '<https://api.github.com/repositories/1/pulls/1/reviews?page=2>; rel="next", <https://api.github.com/repositories/1/pulls/1/reviews?page=4>; rel="last"',
      "https://api.github.com/repositories/1/pulls/1/reviews?page=2",
    ],
    [
      "next last",
      '<https://h/x?page=3>; rel="prev", <https://h/x?page=5>; rel="next last"',
      "https://h/x?page=5",
    ],
    [
      "unquoted, spaced",
      "<https://h/x?page=2> ; rel=next",
      "https://h/x?page=2",
    ],
    ["only prev", '<https://h/x?page=1>; rel="prev"', undefined],
    ["no header", null, undefined],
    ["garbage", "rel=next <", undefined],
  ];
  for (const [name, header, expected] of cases) {
    await t.step(name, () => expect(nextLink(header)).toBe(expected));
  }
});

Deno.test("nextPageUrl() stays on the API", async (t) => {
  const base = new URL("https://git.example/api/v4");
  const current = new URL(
    "https://git.example/api/v4/projects/1/jobs?per_page=100",
  );
  await t.step("x-next-page sets the page", () => {
    expect(
      nextPageUrl(current, new Headers({ "x-next-page": "3" }), base)?.href,
    ).toBe("https://git.example/api/v4/projects/1/jobs?per_page=100&page=3");
  });
  await t.step("an empty x-next-page ends the list", () => {
    expect(nextPageUrl(current, new Headers({ "x-next-page": "" }), base))
      .toBeUndefined();
  });
  for (
    const [name, link] of [
      ["another host", "https://evil.example/api/v4/x"],
      ["another scheme", "http://git.example/api/v4/x"],
      ["above the API path", "https://git.example/api/v4x/steal"],
    ]
  ) {
    await t.step(name, () => {
      expect(() =>
        nextPageUrl(
          current,
          new Headers({ link: `<${link}>; rel="next"` }),
          base,
        )
      ).toThrow("the next page link leaves the API");
    });
  }
  await t.step("a malformed x-next-page", () => {
    expect(() =>
      nextPageUrl(current, new Headers({ "x-next-page": "2; drop" }), base)
    ).toThrow('"x-next-page" is not a page number ("2; drop")');
  });
});
