/**
 * A webhook receiver for the notify tests: a real HTTP server on 127.0.0.1 (a free
 * port), answering with scripted statuses and delays and keeping what it got.
 * Uses `Deno.serve` (tests only); `await using` shuts it down.
 * @module
 */

/** One request as received. */
export interface Received {
  headers: Headers;
  body: string;
}

/** A running receiver. */
export interface HookServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/hook?token=…` (a secret-looking URL). */
  url: string;
  /** Everything received so far. */
  received: Received[];
}

/**
 * Starts a receiver.
 * @param answers For the n-th request, its status and delay (the last repeats).
 * @returns The server.
 */
export function hookServer(
  answers: { status: number; delayMs?: number }[] = [{ status: 204 }],
): HookServer {
  const received: Received[] = [];
  const waiting = new Set<() => void>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const answer = answers[Math.min(received.length, answers.length - 1)];
      received.push({ headers: request.headers, body: await request.text() });
      if (answer.delayMs) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            waiting.delete(done);
            resolve();
          };
          const timer = setTimeout(done, answer.delayMs);
          waiting.add(done);
        });
      }
      return new Response(null, { status: answer.status });
    },
  );
  const port = (server.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}/hook?token=s3cr3t-url-token`,
    received,
    async [Symbol.asyncDispose]() {
      for (const done of [...waiting]) done();
      await server.shutdown();
    },
  };
}

/**
 * A URL on 127.0.0.1 where nothing listens (a port just freed).
 * @returns The URL.
 */
export function deadUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}/hook?token=dead-s3cr3t`;
}
