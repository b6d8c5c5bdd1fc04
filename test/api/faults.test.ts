import { expect, test } from "@playwright/test";
import { closeServer, listen, type ListeningServer } from "../../fixtures/http.js";
import { FIXTURE_API_KEY } from "../../fixtures/service/api.js";
import { createServiceHandler } from "../../fixtures/service/service.js";
import { systemClock, type Clock } from "../../src/api/client.js";
import { gatherApi, gatherRecentEvents, type ApiSettings } from "../../src/api/gather.js";
import type { ApiArtifacts } from "../../src/artifacts/types.js";
import type { AuditSpec } from "../../src/audit-spec/schema.js";
import { apiAuth } from "../../src/checks/api/auth.js";
import { apiGoals } from "../../src/checks/api/goals.js";
import { apiProject } from "../../src/checks/api/project.js";
import { apiWorkspace } from "../../src/checks/api/workspace.js";
import { apiSettings } from "../../src/cli/api-phase.js";
import { ingestedEvents } from "../../src/artifacts/delivery.js";
import { contextOf, specWith } from "../support/artifacts.js";
import { environmentDomain } from "../../src/url/domain.js";

/**
 * The API gatherer and checks against the real mock service in each of its fault modes: the
 * finding, the requests the service received (bounded; none retried on 4xx) and the waits between
 * attempts. The retry policy is shrunk so that the whole file takes seconds. The clock is the real
 * one, recording each wait the client asks for: the waits are the behaviour, and unlike the time a
 * run takes they do not change with the machine's load.
 */

// An attempt's timeout far above what the mock service takes to answer on a machine at any load:
// a retry there would be the machine's, not the service's. Only the slow fault, which answers
// after 5 s, is cut off sooner (SLOW_RETRY).
const RETRY = { baseDelayMs: 100, maxDelayMs: 400, timeoutMs: 20_000, totalTimeoutMs: 60_000 };
const SLOW_RETRY = { ...RETRY, timeoutMs: 1500, totalTimeoutMs: 15_000 };

let service: ListeningServer;
let apiRequests: string[] = [];

test.beforeAll(async () => {
  const handler = createServiceHandler();
  service = await listen(
    (request, response) => {
      if (request.url?.includes("/v1/projects")) apiRequests.push(request.url);
      handler(request, response);
    },
    "127.0.0.1",
    0,
  );
});

test.afterAll(() => closeServer(service.server));

test.beforeEach(() => {
  apiRequests = [];
});

/** The real clock, with every wait between attempts noted. */
function recordingClock(): Clock & { waits: number[] } {
  const waits: number[] = [];
  return { waits, now: systemClock.now, sleep: (ms) => (waits.push(ms), systemClock.sleep(ms)) };
}

/** One wait per retry, each drawn below its cap (the base delay doubled per retry). */
function expectJitteredWaits(waits: number[], caps: number[]) {
  expect(waits).toHaveLength(caps.length);
  waits.forEach((wait, retry) => expect(wait).toBeLessThan(caps[retry]!));
}

/** HTTP requests sent per endpoint, retries included, as each exchange counted them. */
function attemptsOf(artifacts: ApiArtifacts) {
  const { projects, goals, recentEvents, report } = artifacts;
  return {
    projects: projects?.attempts ?? 0,
    goals: goals?.attempts ?? 0,
    recentEvents: recentEvents?.attempts ?? 0,
    report: report?.attempts ?? 0,
  };
}

function specAt(baseUrl: string, api: Record<string, unknown> = {}) {
  return specWith({
    api: { baseUrl, keyEnv: "AUDIT_TEST_KEY", goalsPath: "/v1/projects/{project}/goals", retry: RETRY, ...api },
  });
}

/** What the CLI asks the service about the spec's staging environment. */
function settingsOf(spec: AuditSpec): ApiSettings {
  const settings = apiSettings({ spec, environment: "staging", domain: environmentDomain(spec.environments.staging!) });
  if (!settings) throw new Error("the spec has no api section");
  return settings;
}

/** Gathers the API as the CLI does (before the browsers) and runs the four API checks. */
async function audit(faultPrefix: string, api: Record<string, unknown> = {}, key = FIXTURE_API_KEY) {
  const spec = specAt(`${service.origin}${faultPrefix}`, api);
  const clock = recordingClock();
  const started = Date.now();
  const artifacts = await gatherApi(settingsOf(spec), { env: { AUDIT_TEST_KEY: key }, clock });
  const elapsedMs = Date.now() - started;
  const context = contextOf([], spec, artifacts);
  const findings = [apiAuth, apiProject, apiWorkspace, apiGoals].flatMap((check) => check.evaluate(context));
  const status = Object.fromEntries(findings.map((found) => [found.check, found.status]));
  const message = (check: string) => findings.find((found) => found.check === check)!.message;
  return { artifacts, findings, status, message, elapsedMs, waits: clock.waits };
}

const ALL_PASS = { "api.auth": "pass", "api.project": "pass", "api.workspace": "pass", "api.goals": "pass" };
const PROJECT_FAILED = { "api.auth": "skip", "api.project": "fail", "api.workspace": "skip", "api.goals": "skip" };

test("normal: every API check passes with one request per endpoint", async () => {
  const run = await audit("");
  expect(run.status).toEqual(ALL_PASS);
  expect(apiRequests).toEqual(["/v1/projects", "/v1/projects/prj_demo_staging/goals"]);
  expect(attemptsOf(run.artifacts)).toEqual({ projects: 1, goals: 1, recentEvents: 0, report: 0 });
  expect(run.waits).toEqual([]);
});

test("401: api.auth fails at the first answer, the echoed key redacted; nothing else is asked", async () => {
  const key = "sk_fault_401_Zq8unusual";
  const run = await audit("/faults/401", {}, key);
  expect(run.status).toEqual({
    "api.auth": "fail",
    "api.project": "skip",
    "api.workspace": "skip",
    "api.goals": "skip",
  });
  expect(run.message("api.auth")).toBe(
    `The service rejected the key in AUDIT_TEST_KEY (GET ${service.origin}/faults/401/v1/projects: HTTP 401 with body {"error":"invalid api key","received":"[redacted]"}). ` +
      'Set AUDIT_TEST_KEY to a valid API key of workspace "Acme Marketing".',
  );
  expect(JSON.stringify([run.artifacts, run.findings])).not.toContain(key);
  expect(apiRequests).toHaveLength(1);
  expect(run.waits).toEqual([]);
});

test("403: api.auth fails without a retry", async () => {
  const run = await audit("/faults/403");
  expect(run.status["api.auth"]).toBe("fail");
  expect(run.message("api.auth")).toContain(
    "The service knows the key in AUDIT_TEST_KEY but refused it the project list",
  );
  expect(run.message("api.auth")).toContain('Use a key with access to workspace "Acme Marketing".');
  expect(apiRequests).toHaveLength(1);
  expect(run.waits).toEqual([]);
});

test("429 with Retry-After: 1, then success: the client waits the second it was asked to", async () => {
  const run = await audit(`/faults/429-once-${test.info().testId}`);
  expect(run.status).toEqual(ALL_PASS);
  expect(attemptsOf(run.artifacts)).toEqual({ projects: 2, goals: 1, recentEvents: 0, report: 0 });
  expect(apiRequests).toHaveLength(3);
  expect(run.waits).toEqual([1000]);
  expect(run.elapsedMs).toBeGreaterThanOrEqual(1000);
});

test("429 with a Retry-After longer than the budget: one request, then a finding that says so", async () => {
  const run = await audit("/faults/429-120");
  expect(run.status).toEqual(PROJECT_FAILED);
  expect(run.message("api.project")).toContain("it is rate limited — HTTP 429");
  expect(run.message("api.project")).toMatch(
    /the service asked to wait 120 s \(Retry-After\), more than the [\d.]+ s left of the 60 s budget\. Run the audit later, or raise api\.retry\.totalTimeoutMs\.$/,
  );
  expect(apiRequests).toHaveLength(1);
  expect(run.waits).toEqual([]);
});

test("503 every time: four attempts with jittered waits, then a finding", async () => {
  const run = await audit("/faults/503");
  expect(run.status).toEqual(PROJECT_FAILED);
  expect(run.message("api.project")).toMatch(
    /HTTP 503 with body \{"error":"service unavailable"\}, after 4 attempts in [\d.]+ m?s\. The service is having trouble: run the audit later\.$/,
  );
  expect(apiRequests).toHaveLength(4);
  expectJitteredWaits(run.waits, [100, 200, 400]);
});

test("503 once, then success: one retry", async () => {
  const run = await audit(`/faults/503-once-${test.info().testId}`);
  expect(run.status).toEqual(ALL_PASS);
  expect(attemptsOf(run.artifacts)).toEqual({ projects: 2, goals: 1, recentEvents: 0, report: 0 });
  expect(apiRequests).toHaveLength(3);
  expectJitteredWaits(run.waits, [100]);
});

test("slower than the timeout: each attempt is cut off, four in all, within the budget", async () => {
  const run = await audit("/faults/slow-5000", { retry: SLOW_RETRY });
  expect(run.status).toEqual(PROJECT_FAILED);
  expect(run.message("api.project")).toMatch(
    /no complete answer within 1.5 s, after 4 attempts in [\d.]+ s\. The service is slow or down: run the audit later, or raise api\.retry\.timeoutMs\.$/,
  );
  expect(apiRequests).toHaveLength(4);
  expect(run.elapsedMs).toBeGreaterThanOrEqual(4 * 1500);
  expectJitteredWaits(run.waits, [100, 200, 400]);
});

test("malformed JSON: the key was accepted, the project list fails with a quote of the body", async () => {
  const run = await audit("/faults/malformed");
  expect(run.status).toEqual({ ...PROJECT_FAILED, "api.auth": "pass" });
  expect(run.message("api.project")).toMatch(
    /it answered HTTP 200, but the body could not be understood: the body is not JSON \(.+\); the body was \{"data": \[\{"key": "prj_demo_staging", "name": "Demo sh\./,
  );
  expect(apiRequests).toHaveLength(1);
});

test("valid JSON of another shape: the finding names the missing field", async () => {
  const run = await audit("/faults/no-data");
  expect(run.status["api.project"]).toBe("fail");
  expect(run.message("api.project")).toContain(
    'the body could not be understood: data must be a list, not missing; the body was {"projects":[',
  );
  expect(apiRequests).toHaveLength(1);
});

test("renamed fields and a nested workspace still match", async () => {
  const run = await audit("/faults/renamed");
  expect(run.status).toEqual(ALL_PASS);
  expect(run.message("api.project")).toBe(
    "The service lists the project: project prj_demo_staging has projectKey `prj_demo_staging`.",
  );
  expect(run.findings.find((found) => found.check === "api.workspace")!.evidence).toMatchObject({
    field: "settings.workspace",
  });
});

test("{projectId} with elements that carry no id: api.goals fails without sending a request", async () => {
  const run = await audit("/faults/renamed", { goalsPath: "/v1/projects/{projectId}/goals" });
  expect(run.status["api.goals"]).toBe("fail");
  expect(run.message("api.goals")).toContain(
    "/v1/projects/{projectId}/goals needs {projectId}, but the service's project element has no id field. Use {project}",
  );
  expect(apiRequests).toEqual(["/faults/renamed/v1/projects"]);
});

test("an absent endpoint (404) is not retried and names the setting to fix", async () => {
  const run = await audit("", { goalsPath: "/v1/projects/{project}/conversions" });
  expect(run.status).toEqual({ ...ALL_PASS, "api.goals": "fail" });
  expect(run.message("api.goals")).toBe(
    `Could not read the service's goals (GET ${service.origin}/v1/projects/prj_demo_staging/conversions): HTTP 404 with body {"error":"not found"} — the service has no such endpoint. Fix api.goalsPath.`,
  );
  expect(apiRequests).toHaveLength(2);
});

test("the API down: bounded attempts, then a finding that says what to check", async () => {
  const closed = await listen(() => undefined, "127.0.0.1", 0);
  await closeServer(closed.server);
  const spec = specAt(closed.origin);
  const clock = recordingClock();
  const artifacts = await gatherApi(settingsOf(spec), { env: { AUDIT_TEST_KEY: FIXTURE_API_KEY }, clock });
  const [finding] = apiProject.evaluate(contextOf([], spec, artifacts));
  expect(finding).toMatchObject({
    status: "fail",
    message: expect.stringMatching(
      // How long the attempts took is the machine's business: milliseconds, or seconds past one.
      /ECONNREFUSED.*after 4 attempts in [\d.]+ m?s\. Check api\.baseUrl and that the service is up/,
    ),
  });
  expect(attemptsOf(artifacts).projects).toBe(4);
  expectJitteredWaits(clock.waits, [100, 200, 400]);
});

test("no key: nothing is requested", async () => {
  const spec = specAt(service.origin);
  const artifacts = await gatherApi(settingsOf(spec), { env: {} });
  expect(artifacts).toMatchObject({ keySet: false, projects: null, goals: null, recentEvents: null, report: null });
  expect(apiRequests).toEqual([]);
});

test("recent events are read once, after the run started, from the service's own list", async () => {
  const spec = specAt(service.origin, { recentEventsPath: "/v1/projects/{projectId}/events" });
  const env = { AUDIT_TEST_KEY: FIXTURE_API_KEY };
  const before = await gatherApi(settingsOf(spec), { env });
  const event = { kind: "track", name: `fault_test_${test.info().testId}`, properties: {} };
  await fetch(`${service.origin}/v1/collect`, {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: JSON.stringify({ key: "prj_demo_staging", events: [event] }),
  });
  const after: ApiArtifacts = await gatherRecentEvents(settingsOf(spec), before, { env });
  expect(attemptsOf(after)).toEqual({ projects: 1, goals: 1, recentEvents: 1, report: 0 });
  expect(apiRequests.at(-1)).toBe("/v1/projects/p_1001/events");
  expect(ingestedEvents(after)).toContainEqual(expect.objectContaining({ kind: "track", name: event.name }));
  expect(ingestedEvents({ ...after, startedAt: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
});

test.describe("report data (report.path)", () => {
  const withReport = (baseUrl: string, path: string) => ({
    ...specAt(baseUrl),
    report: { path, srm: { alpha: 0.001, minimumVisitors: 100 } },
  });
  const env = { AUDIT_TEST_KEY: FIXTURE_API_KEY };

  test("is read once, with the goals, its requests counted", async () => {
    const artifacts = await gatherApi(settingsOf(withReport(service.origin, "/v1/projects/{project}/report")), { env });
    expect(apiRequests).toEqual([
      "/v1/projects",
      "/v1/projects/prj_demo_staging/goals",
      "/v1/projects/prj_demo_staging/report",
    ]);
    expect(attemptsOf(artifacts)).toEqual({ projects: 1, goals: 1, recentEvents: 0, report: 1 });
    expect(artifacts.report).toMatchObject({
      url: `${service.origin}/v1/projects/prj_demo_staging/report`,
      status: 200,
      failure: null,
    });
    expect(artifacts.report!.data!.map((experiment) => experiment.name)).toEqual(["Pricing CTA copy, short vs long"]);
  });

  test("fills {project} with the environment's projectKey when the page's SDK key is a vendor's", async () => {
    const spec = withReport(service.origin, "/v1/projects/{project}/report");
    spec.environments.staging = {
      ...spec.environments.staging!,
      key: "wk_segment_staging",
      projectKey: "prj_demo_staging",
    };
    await gatherApi(settingsOf(spec), { env });
    expect(apiRequests).toEqual([
      "/v1/projects",
      "/v1/projects/prj_demo_staging/goals",
      "/v1/projects/prj_demo_staging/report",
    ]);
  });

  test("fills in {projectId}; an unknown endpoint is a failed exchange, not retried", async () => {
    const artifacts = await gatherApi(settingsOf(withReport(service.origin, "/v1/projects/{projectId}/reports")), {
      env,
    });
    expect(apiRequests.at(-1)).toBe("/v1/projects/p_1001/reports");
    expect(artifacts.report).toMatchObject({ status: 404, data: null, failure: { kind: "http", status: 404 } });
    expect(attemptsOf(artifacts).report).toBe(1);
  });

  test("is not asked when the project list could not be read", async () => {
    const artifacts = await gatherApi(
      settingsOf(withReport(`${service.origin}/faults/malformed`, "/v1/projects/{project}/report")),
      { env },
    );
    expect(apiRequests).toEqual(["/faults/malformed/v1/projects"]);
    expect(artifacts.report).toBeNull();
  });
});
