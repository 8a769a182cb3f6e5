// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { InputError } from "../../src/errors.ts";
import { ForgeError } from "../../src/forge/forge_error.ts";
import { apiPath, parseApiUrl } from "../../src/forge/forge_env.ts";
import {
  decideRetry,
  forgeHttp,
  type HttpDeps,
  nextLink,
  nextPageUrl,
} from "../../src/forge/forge_http.ts";
import { type FakeForge, fakeForge } from "../_helpers/fake_forge.ts";
import { START, testDeps } from "./_forge_test_deps.ts";

const RUN = "/repos/octo/hello/actions/runs/30433642";
const REVIEWS = "/repos/octo/hello/pulls/12/reviews";

function edge(fake: FakeForge, deps: HttpDeps) {
  return forgeHttp({
    apiUrl: fake.apiUrl,
    auth: ["authorization", `Bearer ${fake.token}`],
    token: fake.token,
  }, deps);
}

async function failure(promise: Promise<unknown>): Promise<ForgeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ForgeError) return error;
    throw error;
  }
  throw new Error("expected a ForgeError");
}

function withRun(fake: FakeForge): FakeForge {
  fake.state.runs.set("30433642", { status: "completed", attempt: 1 });
  return fake;
}

Deno.test("forgeHttp() list() follows rel=next over several pages", async () => {
  await using fake = fakeForge("github", { maxPageSize: 2 });
  fake.state.reviews.set(
    12,
    ["a", "b", "c", "d", "e"].map((user) => ({ user, state: "APPROVED" })),
  );
  const { deps, sleeps } = testDeps();
  const list = await edge(fake, deps).list(REVIEWS, { per_page: "100" });
  expect(
    list.items.map((item) => (item as { user: { login: string } }).user.login),
  )
    .toEqual(["a", "b", "c", "d", "e"]);
  expect(fake.requests.map((request) => request.query)).toEqual([
    { per_page: "100" },
    { per_page: "100", page: "2" },
    { per_page: "100", page: "3" },
  ]);
  expect(list.what).toBe(`GET ${fake.apiUrl}${REVIEWS}?per_page=***`);
  expect(sleeps).toEqual([]);
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("forgeHttp() list() follows GitLab's x-next-page when there is no Link", async () => {
  await using fake = fakeForge("gitlab", { maxPageSize: 2, linkHeader: false });
  fake.state.members.set("ann", { id: 1 });
  fake.state.jobs = [1, 2, 3, 4, 5].map((id) => ({
    id,
    name: `job-${id}`,
    status: "success",
    pipeline: 9,
  }));
  const { deps } = testDeps();
  const http = forgeHttp({
    apiUrl: fake.apiUrl,
    auth: ["private-token", fake.token],
    token: fake.token,
  }, deps);
  const list = await http.list("/projects/42/pipelines/9/jobs", {
    per_page: "100",
  });
  expect(list.items.map((job) => (job as { id: number }).id)).toEqual([
    5,
    4,
    3,
    2,
    1,
  ]);
  expect(fake.requests.map((request) => request.headers.get("link"))).toEqual(
    [null, null, null],
  );
  expect(fake.requests.map((request) => request.query.page)).toEqual([
    undefined,
    "2",
    "3",
  ]);
  expect(fake.protocolErrors).toEqual([]);
});

Deno.test("forgeHttp() retries a 502 and answers with the success", async () => {
  await using fake = withRun(fakeForge("github"));
  fake.fail({ status: 502, body: { message: "Bad gateway" } });
  const { deps, sleeps } = testDeps();
  const answer = await edge(fake, deps).request("GET", RUN);
  expect(answer.status).toBe(200);
  expect((answer.body as { status: string }).status).toBe("completed");
  expect(fake.requests.length).toBe(2);
  expect(sleeps).toEqual([750]);
});

Deno.test("forgeHttp() gives up after maxAttempts server errors", async () => {
  await using fake = withRun(fakeForge("github"));
  fake.fail(
    { status: 503, body: { message: "unavailable" } },
    { status: 500 },
    { status: 504 },
    { status: 502, body: { message: "still down" } },
  );
  const { deps, sleeps } = testDeps();
  const error = await failure(edge(fake, deps).request("GET", RUN));
  expect(error.kind).toBe("http");
  expect(error.status).toBe(502);
  expect(error.message).toBe(
    `GET ${fake.apiUrl}${RUN}: HTTP 502: still down (after 4 attempts)`,
  );
  expect(fake.requests.length).toBe(4);
  expect(sleeps).toEqual([750, 1500, 3000]);
});

Deno.test("forgeHttp() waits out a 429 for its retry-after", async () => {
  await using fake = withRun(fakeForge("github"));
  fake.fail({ status: 429, headers: { "retry-after": "7" } });
  const { deps, sleeps } = testDeps();
  const answer = await edge(fake, deps).request("GET", RUN);
  expect(answer.status).toBe(200);
  expect(sleeps).toEqual([7000]);
});

Deno.test("forgeHttp() waits out a 403 primary rate limit until its reset", async (t) => {
  const limited = (resetSeconds: number) => ({
    status: 403,
    headers: {
      "x-ratelimit-limit": "5000",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-used": "5000",
      "x-ratelimit-reset": String(START / 1000 + resetSeconds),
      "x-ratelimit-resource": "core",
    },
    body: {
      message: "API rate limit exceeded for installation ID 1.",
      documentation_url:
        "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
    },
  });
  await t.step("a reset 30 s away is waited for (plus 1 s)", async () => {
    await using fake = withRun(fakeForge("github"));
    fake.fail(limited(30));
    const { deps, sleeps } = testDeps();
    expect((await edge(fake, deps).request("GET", RUN)).status).toBe(200);
    expect(sleeps).toEqual([31_000]);
  });
  await t.step("a reset an hour away is reported, not waited for", async () => {
    await using fake = withRun(fakeForge("github"));
    fake.fail(limited(3600));
    const { deps, sleeps } = testDeps();
    const error = await failure(edge(fake, deps).request("GET", RUN));
    expect(error.kind).toBe("rate-limited");
    expect(error.message).toBe(
      `GET ${fake.apiUrl}${RUN}: HTTP 403: rate limited until 2025-01-01T01:00:01.000Z`,
    );
    expect(sleeps).toEqual([]);
    expect(fake.requests.length).toBe(1);
  });
  await t.step("a 403 that is no rate limit is final", async () => {
    await using fake = withRun(fakeForge("github"));
    fake.fail({
      status: 403,
      body: { message: "Resource not accessible by integration" },
    });
    const { deps, sleeps } = testDeps();
    const error = await failure(edge(fake, deps).request("GET", RUN));
    expect(error.message).toBe(
      `GET ${fake.apiUrl}${RUN}: HTTP 403: Resource not accessible by integration`,
    );
    expect(sleeps).toEqual([]);
  });
});

Deno.test("forgeHttp() retries a POST only when no backend took it", async (t) => {
  const rerun = `${RUN}/rerun-failed-jobs`;
  await t.step("503: retried", async () => {
    await using fake = withRun(fakeForge("github"));
    fake.fail({ status: 503 });
    const { deps } = testDeps();
    const answer = await edge(fake, deps).request("POST", rerun, { body: {} });
    expect(answer.status).toBe(201);
    expect(fake.state.reruns).toEqual(["30433642"]);
  });
  await t.step(
    "500: not retried (the job may have been restarted)",
    async () => {
      await using fake = withRun(fakeForge("github"));
      fake.fail({ status: 500 });
      const { deps } = testDeps();
      const error = await failure(
        edge(fake, deps).request("POST", rerun, { body: {} }),
      );
      expect(error.message).toBe(`POST ${fake.apiUrl}${rerun}: HTTP 500`);
      expect(fake.requests.length).toBe(1);
    },
  );
});

Deno.test("forgeHttp() aborts an attempt that gets no answer in time", async (t) => {
  await t.step("one attempt: a timeout error", async () => {
    await using fake = withRun(fakeForge("github"));
    fake.fail({ hang: true });
    const { deps } = testDeps({ maxAttempts: 1 });
    const pending = failure(edge(fake, deps).request("GET", RUN));
    await fake.waitForRequests(1);
    await deps.clock.tick(30_000);
    const error = await pending;
    expect(error.kind).toBe("timeout");
    expect(error.message).toBe(
      `GET ${fake.apiUrl}${RUN}: no answer within 30 s`,
    );
  });
  await t.step("a GET is tried again after a timeout", async () => {
    await using fake = withRun(fakeForge("github"));
    fake.fail({ hang: true });
    const { deps, sleeps } = testDeps({ timeoutMs: 250 });
    const pending = edge(fake, deps).request("GET", RUN);
    await fake.waitForRequests(1);
    await deps.clock.tick(250);
    expect((await pending).status).toBe(200);
    expect(sleeps).toEqual([750]);
  });
});

Deno.test("forgeHttp() never lets the token into an error", async (t) => {
  await t.step("a forge that echoes the token in its message", async () => {
    await using fake = withRun(fakeForge("github"));
    fake.fail({
      status: 401,
      body: { message: `Bad credentials: ${"t0ken-S3CRET-value"}\n\x1b[31m` },
    });
    const { deps } = testDeps();
    const error = await failure(edge(fake, deps).request("GET", RUN));
    expect(error.message).toBe(
      `GET ${fake.apiUrl}${RUN}: HTTP 401: Bad credentials: *** [31m`,
    );
    expect(error.message).not.toContain(fake.token);
  });
  await t.step("a network error names the masked URL only", async () => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close();
    const { deps } = testDeps({ maxAttempts: 1 });
    const http = forgeHttp({
      apiUrl: `http://127.0.0.1:${port}`,
      auth: ["authorization", "Bearer s3cret-tok"],
      token: "s3cret-tok",
    }, deps);
    const error = await failure(http.request("GET", RUN));
    expect(error.kind).toBe("network");
    expect(error.message).toMatch(
      new RegExp(`^GET http://127\\.0\\.0\\.1:${port}${RUN}: network error: `),
    );
    expect(error.message).not.toContain("s3cret-tok");
    expect(error.message).not.toContain("\n");
  });
  await t.step("credentials in the API URL are refused, masked", () => {
    expect(() => parseApiUrl("https://ci:s3cret-tok@git.example/api/v4"))
      .toThrow(
        new InputError(
          'the forge API URL "https://***@git.example/api/v4" carries credentials; give the token by its variable',
        ),
      );
  });
});

Deno.test("forgeHttp() refuses answers it must not trust", async (t) => {
  await t.step("a body over maxBytes", async () => {
    await using fake = withRun(fakeForge("github"));
    const { deps } = testDeps({ maxBytes: 100 });
    const error = await failure(edge(fake, deps).request("GET", RUN));
    expect(error.kind).toBe("too-large");
    expect(error.message).toBe(
      `GET ${fake.apiUrl}${RUN}: the answer is larger than 100 bytes`,
    );
  });
  await t.step("a body that is not JSON", async () => {
    await using fake = withRun(fakeForge("github"));
    fake.fail({ status: 200, raw: "<html>proxy login</html>" });
    const { deps } = testDeps();
    const error = await failure(edge(fake, deps).request("GET", RUN));
    expect(error.message).toBe(
      `GET ${fake.apiUrl}${RUN}: unexpected answer: the body is not JSON`,
    );
  });
  await t.step(
    "a redirect, which is never followed with the token",
    async () => {
      await using fake = withRun(fakeForge("github"));
      fake.fail({
        status: 301,
        headers: { location: "https://elsewhere.example/" },
      });
      const { deps } = testDeps();
      const error = await failure(edge(fake, deps).request("GET", RUN));
      expect(error.kind).toBe("redirect");
      expect(fake.requests.length).toBe(1);
    },
  );
  await t.step("a next page outside the API", async () => {
    await using fake = fakeForge("github");
    fake.fail({
      status: 200,
      body: [],
      headers: { link: '<https://evil.example/steal?page=2>; rel="next"' },
    });
    const { deps } = testDeps();
    const error = await failure(edge(fake, deps).list(REVIEWS, {}));
    expect(error.message).toBe(
      `GET ${fake.apiUrl}${REVIEWS}: the next page link leaves the API ("https://evil.example/steal")`,
    );
    expect(fake.requests.length).toBe(1);
  });
  await t.step("a page that is not an array", async () => {
    await using fake = fakeForge("github");
    fake.fail({ status: 200, body: { message: "surprise" } });
    const { deps } = testDeps();
    const error = await failure(edge(fake, deps).list(REVIEWS, {}));
    expect(error.message).toBe(
      `GET ${fake.apiUrl}${REVIEWS}: unexpected answer: the page is not an array`,
    );
  });
  await t.step("more pages than maxPages", async () => {
    await using fake = fakeForge("github", { maxPageSize: 1 });
    fake.state.reviews.set(12, [
      { user: "a", state: "APPROVED" },
      { user: "b", state: "APPROVED" },
      { user: "c", state: "APPROVED" },
    ]);
    const { deps } = testDeps({ maxPages: 2 });
    const error = await failure(edge(fake, deps).list(REVIEWS, {}));
    expect(error.message).toBe(
      `GET ${fake.apiUrl}${REVIEWS}: more than 2 pages`,
    );
  });
});

Deno.test("apiPath() encodes each value as one path segment", () => {
  expect(apiPath`/repos/${"o"}/${"a/../b"}/pulls/${7}`).toBe(
    "/repos/o/a%2F..%2Fb/pulls/7",
  );
  expect(apiPath`/projects/${"group/sub project"}`).toBe(
    "/projects/group%2Fsub%20project",
  );
});

Deno.test("parseApiUrl() accepts http(s) URLs and drops the trailing slash", async (t) => {
  await t.step("accepted", () => {
    expect(parseApiUrl("https://gitlab.example/api/v4/").href).toBe(
      "https://gitlab.example/api/v4",
    );
  });
  for (
    const [name, url, what] of [
      ["not a URL", "api.github.com", "is not a URL"],
      ["another scheme", "file:///etc/passwd", "is not http(s)"],
      ["a query", "https://h/api?x=1", "has a query or fragment"],
    ]
  ) {
    await t.step(name, () => {
      expect(() => parseApiUrl(url)).toThrow(
        new InputError(
          `the forge API URL "${url.replace("x=1", "x=***")}" ${what}`,
        ),
      );
    });
  }
});

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

const POLICY = {
  maxAttempts: 4,
  backoffMs: 1000,
  maxBackoffMs: 4000,
  maxRateLimitWaitMs: 60_000,
};
const NOW = 1_700_000_000_000;

function answer(status: number, headers: Record<string, string> = {}) {
  return { status, headers: new Headers(headers) };
}

Deno.test("decideRetry() retries transient failures with capped, jittered backoff", async (t) => {
  const cases: [string, Parameters<typeof decideRetry>[0], unknown][] = [
    ["GET network error", { method: "GET", attempt: 1, now: NOW, random: 0 }, {
      action: "retry",
      waitMs: 500,
    }],
    ["GET 500, jitter high", {
      method: "GET",
      answer: answer(500),
      attempt: 2,
      now: NOW,
      random: 0.999,
    }, { action: "retry", waitMs: 1999 }],
    ["GET 504 capped", {
      method: "GET",
      answer: answer(504),
      attempt: 3,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 2000 }],
    ["POST 502", {
      method: "POST",
      answer: answer(502),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 500 }],
    ["POST 500", {
      method: "POST",
      answer: answer(500),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "give-up" }],
    [
      "POST network error",
      { method: "POST", attempt: 1, now: NOW, random: 0 },
      { action: "give-up" },
    ],
    ["GET 404", {
      method: "GET",
      answer: answer(404),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "give-up" }],
    ["GET 502 on the last attempt", {
      method: "GET",
      answer: answer(502),
      attempt: 4,
      now: NOW,
      random: 0,
    }, { action: "give-up" }],
  ];
  for (const [name, failed, expected] of cases) {
    await t.step(
      name,
      () => expect(decideRetry(failed, POLICY)).toEqual(expected),
    );
  }
});

Deno.test("decideRetry() waits out rate limits within the bound", async (t) => {
  const reset = (seconds: number) => String(NOW / 1000 + seconds);
  const cases: [string, Parameters<typeof decideRetry>[0], unknown][] = [
    ["429 retry-after seconds", {
      method: "POST",
      answer: answer(429, { "retry-after": "12" }),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 12_000 }],
    ["429 retry-after date", {
      method: "GET",
      answer: answer(429, {
        "retry-after": new Date(NOW + 5000).toUTCString(),
      }),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 5000 }],
    ["429 without headers: backoff", {
      method: "GET",
      answer: answer(429),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 500 }],
    ["403 exhausted, GitHub reset", {
      method: "GET",
      answer: answer(403, {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": reset(20),
      }),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 21_000 }],
    ["429 GitLab ratelimit-reset", {
      method: "GET",
      answer: answer(429, {
        "ratelimit-remaining": "0",
        "ratelimit-reset": reset(9),
      }),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 10_000 }],
    ["403 secondary limit retry-after", {
      method: "POST",
      answer: answer(403, { "retry-after": "30" }),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "retry", waitMs: 30_000 }],
    ["too far away", {
      method: "GET",
      answer: answer(403, {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": reset(600),
      }),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "rate-limited", untilMs: NOW + 601_000 }],
    ["403 without rate-limit headers", {
      method: "GET",
      answer: answer(403),
      attempt: 1,
      now: NOW,
      random: 0,
    }, { action: "give-up" }],
    ["rate limited on the last attempt", {
      method: "GET",
      answer: answer(429, { "retry-after": "1" }),
      attempt: 4,
      now: NOW,
      random: 0,
    }, { action: "give-up" }],
  ];
  for (const [name, failed, expected] of cases) {
    await t.step(
      name,
      () => expect(decideRetry(failed, POLICY)).toEqual(expected),
    );
  }
});
