import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
import { expect, test } from "@playwright/test";
import { closeServer, listen, type ListeningServer } from "../../fixtures/http.js";
import { ApiClient, type Clock } from "../../src/api/client.js";

/**
 * The client's retry decisions and timing, against a real local server that answers from a
 * script, with a fake clock: waits are recorded instead of slept, so every figure is exact.
 */

interface Scripted {
  status: number;
  headers?: OutgoingHttpHeaders;
  body?: string;
  /** Never answer: the request hangs until the client gives up. */
  hang?: boolean;
}

let server: ListeningServer;
let script: Scripted[] = [];
let received: IncomingHttpHeaders[] = [];

test.beforeAll(async () => {
  server = await listen(
    (request, response) => {
      received.push(request.headers);
      // The last answer repeats once the script runs out.
      const next = script.length > 1 ? script.shift()! : script[0]!;
      if (next.hang) return;
      response
        .writeHead(next.status, { "content-type": "application/json", ...next.headers })
        .end(next.body ?? '{"data": []}');
    },
    "127.0.0.1",
    0,
  );
});

test.afterAll(() => closeServer(server.server));

test.beforeEach(() => {
  received = [];
});

const KEY = "key-Zq8-unusual";

function fakeClock(startMs = Date.parse("2030-01-01T10:00:00Z")): Clock & { waits: number[] } {
  let now = startMs;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  };
}

function clientWith(
  clock: Clock,
  policy: ConstructorParameters<typeof ApiClient>[0]["policy"] = {},
  random = () => 0.5,
) {
  return new ApiClient({ baseUrl: `${server.origin}/prefix/`, key: KEY, policy, clock, random });
}

test("a 2xx answer is returned at once, the key sent in its header under the base URL's prefix", async () => {
  script = [{ status: 200, body: '{"data": [1]}', headers: { date: "Tue, 01 Jan 2030 10:00:00 GMT" } }];
  const answer = await clientWith(fakeClock()).get("/v1/projects");
  expect(answer).toMatchObject({
    ok: true,
    status: 200,
    body: '{"data": [1]}',
    date: "Tue, 01 Jan 2030 10:00:00 GMT",
    attempts: 1,
    url: `${server.origin}/prefix/v1/projects`,
  });
  expect(received.map((headers) => [headers["x-service-api-key"], headers["user-agent"]])).toEqual([
    [KEY, "setup-audit"],
  ]);
});

test("503 then 200: one retry after a jittered wait of half the base delay", async () => {
  script = [{ status: 503 }, { status: 200 }];
  const clock = fakeClock();
  const answer = await clientWith(clock).get("/v1/projects");
  expect(answer).toMatchObject({ ok: true, attempts: 2, durationMs: 250 });
  expect(clock.waits).toEqual([250]);
  expect(received).toHaveLength(2);
});

test("waits double up to the cap, and the attempts are bounded", async () => {
  script = [{ status: 500 }];
  const clock = fakeClock();
  const answer = await clientWith(
    clock,
    { attempts: 6, baseDelayMs: 1000, maxDelayMs: 3000, totalTimeoutMs: 60_000 },
    () => 0.999_999,
  ).get("/v1/projects");
  expect(answer).toMatchObject({ ok: false, attempts: 6, failure: { kind: "http", status: 500 } });
  expect(clock.waits).toEqual([999, 1999, 2999, 2999, 2999]);
  expect(received).toHaveLength(6);
});

test("Retry-After in seconds is honoured, beyond the cap of a backoff wait", async () => {
  script = [{ status: 429, headers: { "retry-after": "12" } }, { status: 200 }];
  const clock = fakeClock();
  const answer = await clientWith(clock).get("/v1/projects");
  expect(answer).toMatchObject({ ok: true, attempts: 2 });
  expect(clock.waits).toEqual([12_000]);
});

test("Retry-After as an HTTP date is honoured", async () => {
  script = [{ status: 503, headers: { "retry-after": "Tue, 01 Jan 2030 10:00:03 GMT" } }, { status: 200 }];
  const clock = fakeClock();
  expect(await clientWith(clock).get("/v1/projects")).toMatchObject({ ok: true, attempts: 2 });
  expect(clock.waits).toEqual([3000]);
});

test("a Retry-After longer than the budget left stops at once and says so", async () => {
  script = [{ status: 429, headers: { "retry-after": "120" } }];
  const clock = fakeClock();
  const answer = await clientWith(clock).get("/v1/projects");
  expect(answer).toMatchObject({
    ok: false,
    attempts: 1,
    failure: {
      kind: "retry-after",
      status: 429,
      detail: expect.stringContaining(
        "the service asked to wait 120 s (Retry-After), more than the 30 s left of the 30 s budget",
      ),
    },
  });
  expect(clock.waits).toEqual([]);
});

for (const status of [400, 401, 403, 404]) {
  test(`${status} is never retried`, async () => {
    script = [{ status, body: '{"error": "no"}' }];
    const clock = fakeClock();
    const answer = await clientWith(clock).get("/v1/projects");
    expect(answer).toMatchObject({
      ok: false,
      attempts: 1,
      failure: { kind: "http", status, detail: `HTTP ${status} with body {"error": "no"}` },
    });
    expect(clock.waits).toEqual([]);
    expect(received).toHaveLength(1);
  });
}

test("the total budget ends the retries when the next wait would not leave time for a request", async () => {
  script = [{ status: 503 }];
  const clock = fakeClock();
  // Waits of 396 and then 792 ms: after the first, 604 ms are left, less than the second.
  const answer = await clientWith(clock, { totalTimeoutMs: 1000, baseDelayMs: 400 }, () => 0.99).get("/v1/projects");
  expect(answer).toMatchObject({ ok: false, attempts: 2, durationMs: 396, failure: { kind: "http", status: 503 } });
  expect(clock.waits).toEqual([396]);
});

test("a request with no answer times out, and is retried like a network error", async () => {
  script = [{ status: 200, hang: true }];
  const clock = fakeClock();
  const started = Date.now();
  const answer = await clientWith(clock, { timeoutMs: 150, attempts: 2 }).get("/v1/projects");
  expect(answer).toMatchObject({
    ok: false,
    attempts: 2,
    failure: { kind: "timeout", status: null, detail: "no complete answer within 150 ms" },
  });
  expect(clock.waits).toEqual([250]);
  expect(Date.now() - started).toBeGreaterThanOrEqual(300);
});

test("network errors are retried, and the key never appears in what the client reports", async () => {
  const closed = await listen(() => undefined, "127.0.0.1", 0);
  await closeServer(closed.server);
  const clock = fakeClock();
  const client = new ApiClient({ baseUrl: `${closed.origin}/${KEY}`, key: KEY, clock, random: () => 0.5 });
  const answer = await client.get("/v1/projects");
  expect(answer).toMatchObject({ ok: false, attempts: 4, failure: { kind: "network", status: null } });
  expect(clock.waits).toEqual([250, 500, 1000]);
  expect(JSON.stringify(answer)).not.toContain(KEY);
  expect(answer.url).toBe(`${closed.origin}/[redacted]/v1/projects`);
});

test("an error body that echoes the key is quoted redacted and truncated", async () => {
  script = [{ status: 401, body: JSON.stringify({ error: "bad key", key: KEY, padding: "x".repeat(400) }) }];
  const answer = await clientWith(fakeClock()).get("/v1/projects");
  expect(answer.ok).toBe(false);
  const detail = !answer.ok ? answer.failure.detail : "";
  expect(detail).toContain('"key":"[redacted]"');
  expect(detail).not.toContain(KEY);
  expect(detail.endsWith("…")).toBe(true);
});
