import type { CapturedCall, CollectRequest, PageArtifacts } from "../../src/artifacts.js";
import type { AuditContext } from "../../src/checks/check.js";
import { auditSpecSchema, type AuditSpec } from "../../src/spec/schema.js";

/** A valid spec for unit tests, with `overrides` merged over the top level. */
export function specWith(overrides: Record<string, unknown> = {}): AuditSpec {
  return auditSpecSchema.parse({
    workspace: "Acme Marketing",
    project: "Demo shop",
    environments: { staging: { key: "prj_demo_staging", baseUrl: "http://127.0.0.1:47412" } },
    sdk: { script: "**/sdk/v1/sdk.js", global: "expsvc", track: "track", identify: "identify", collect: "**/v1/collect" },
    goals: [{ name: "Signup completed", event: "signup_success" }],
    pages: [
      { id: "home", path: "/" },
      { id: "signup", path: "/signup", expect: { track: ["signup_success"], identify: true } },
    ],
    ...overrides,
  });
}

/** Page artifacts of a page that loaded with a ready SDK and no calls, with `overrides` applied. */
export function pageWith(overrides: Partial<PageArtifacts> = {}): PageArtifacts {
  return {
    spec: "audits/demo.yaml",
    environment: "staging",
    page: "home",
    viewport: "desktop",
    mobile: false,
    requestedUrl: "http://127.0.0.1:47412/",
    finalUrl: "http://127.0.0.1:47412/",
    navigations: ["http://127.0.0.1:47412/"],
    loadError: null,
    documentStatus: 200,
    stepError: null,
    sdkScripts: [{ url: "http://127.0.0.1:47411/sdk/v1/sdk.js", status: 200, failure: null, atMs: 20 }],
    sdkReadyAtMs: 120,
    sdkTagKey: "prj_demo_staging",
    keySightings: [{ key: "prj_demo_staging", where: "script-tag", detail: "data-project-key" }],
    selectors: [],
    canarySightings: [],
    calls: [],
    collect: [],
    errors: [],
    screenshot: null,
    durationMs: 900,
    ...overrides,
  };
}

/** A call made directly on the ready SDK, with `overrides` applied. */
export function callWith(overrides: Partial<CapturedCall> = {}): CapturedCall {
  return { kind: "track", name: "signup_success", properties: {}, atMs: 500, state: "direct", documentUrl: "http://127.0.0.1:47412/signup", ...overrides };
}

/** A collect request that carried the given calls and got `status`. */
export function collectOf(calls: readonly CapturedCall[], status: number | null = 202, failure: string | null = null): CollectRequest {
  return {
    url: "http://127.0.0.1:47411/v1/collect",
    method: "POST",
    atMs: 600,
    status,
    failure,
    events: calls.map((call) => ({ strings: [call.kind, call.name ?? ""], raw: { kind: call.kind, name: call.name } })),
    decodeError: null,
  };
}

/** A check context over these pages. */
export function contextOf(pages: PageArtifacts[], spec: AuditSpec = specWith()): AuditContext {
  return { spec, specFile: "audits/demo.yaml", environment: "staging", pages };
}
