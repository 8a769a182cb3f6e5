// @ts-types="../../types/std/expect.d.ts"
import { expect } from "@std/expect";
import { InputError } from "../../src/errors.ts";
import { ForgeError } from "../../src/forge/forge_error.ts";
import { apiPath, parseApiUrl } from "../../src/forge/forge_env.ts";
import { forgeHttp, type HttpDeps } from "../../src/forge/forge_http.ts";
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
