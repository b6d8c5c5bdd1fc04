import type { z } from "zod";
import { goalListSchema, projectListSchema } from "../../src/api/schemas.js";
import type {
  ApiArtifacts,
  ApiExchange,
  ApiFailure,
  CapturedCall,
  CollectRequest,
  PageArtifacts,
} from "../../src/artifacts/types.js";
import type { AuditContext } from "../../src/checks/check.js";
import { reported } from "../../src/checks/index.js";
import type { Finding } from "../../src/findings/finding.js";
import { ingestedEvents, reconcileDeliveries } from "../../src/artifacts/delivery.js";
import { unopenedPage } from "../../src/gather/unopened-page.js";
import { plainPageInput } from "../../src/schedule/page-input.js";
import type { AuditUnit } from "../../src/schedule/plan.js";
import { planTarget } from "../../src/schedule/target.js";
import { auditSpecSchema, type AuditSpec } from "../../src/audit-spec/schema.js";

/** A valid spec for unit tests, with `overrides` merged over the top level. */
export function specWith(overrides: Record<string, unknown> = {}): AuditSpec {
  return auditSpecSchema.parse({
    workspace: "Acme Marketing",
    project: "Demo shop",
    environments: { staging: { key: "prj_demo_staging", baseUrl: "http://127.0.0.1:47412" } },
    sdk: {
      script: "**/sdk/v1/sdk.js",
      global: "expsvc",
      track: "track",
      identify: "identify",
      collect: "**/v1/collect",
    },
    goals: [{ name: "Signup completed", event: "signup_success" }],
    pages: [
      { id: "home", path: "/" },
      { id: "signup", path: "/signup", expect: { track: ["signup_success"], identify: true } },
    ],
    ...overrides,
  });
}

/** A spec with staging on the default spec's base URL and production on its own domain. */
export const twoEnvironments = specWith({
  environments: {
    staging: { key: "prj_demo_staging", baseUrl: "http://127.0.0.1:47412" },
    production: { key: "prj_demo_prod", baseUrl: "https://shop.example.test", domain: "example.test" },
  },
  defaultEnvironment: "staging",
});

/**
 * A finding as a run reports it, with its check's title, severity and family: a passing page.load
 * of audits/shop.yaml on no page, viewport, goal or experiment, with `overrides`.
 */
export function findingWith(overrides: Partial<Finding> = {}): Finding {
  return reported({
    check: "page.load",
    status: "pass",
    spec: "audits/shop.yaml",
    page: null,
    viewport: null,
    goal: null,
    experiment: null,
    variation: null,
    message: "",
    evidence: {},
    ...overrides,
  });
}

/**
 * Page artifacts of a page that loaded with a ready SDK and no calls, with `overrides` applied:
 * what a page no part observed holds (the unopened page's record, so that a new field's empty
 * value comes with it), then what a loaded page of the demo spec showed.
 */
export function pageWith(overrides: Partial<PageArtifacts> = {}): PageArtifacts {
  const page = overrides.page ?? "home";
  const input = plainPageInput({
    spec: "audits/demo.yaml",
    environment: "staging",
    unit: { id: page, kind: "page" },
    page: { id: page, path: "/", steps: [] },
    baseUrl: "http://127.0.0.1:47412",
    siteDomain: "127.0.0.1",
    viewport: "desktop",
    mobile: false,
    sdk: specWith().sdk,
    projectKeys: ["prj_demo_staging"],
    traffic: specWith().traffic,
  });
  const unobserved = unopenedPage(input, { loadError: "", login: null });
  return {
    ...unobserved,
    browser: "Chromium 156.0.7339.80",
    finalUrl: "http://127.0.0.1:47412/",
    navigations: ["http://127.0.0.1:47412/"],
    loadError: null,
    documentStatus: 200,
    access: { login: null, landedUrl: "http://127.0.0.1:47412/", passwordField: false, authRefused: false },
    sdkScripts: [{ url: "http://127.0.0.1:47411/sdk/v1/sdk.js", status: 200, failure: null, atMs: 20 }],
    sdkReadyAtMs: 120,
    sdkTagKey: "prj_demo_staging",
    keySightings: [{ key: "prj_demo_staging", where: "script-tag", detail: "data-project-key" }],
    durationMs: 900,
    ...overrides,
    unit: overrides.unit ?? unitOf(overrides),
  };
}

/** The unit a test's page stands for, from what it overrides: a preview with `variation`, a consent unit with a refusal's `consent`, else the page as it is. */
function unitOf(overrides: Partial<PageArtifacts>): PageArtifacts["unit"] {
  const page = overrides.page ?? "home";
  if (overrides.variation)
    return { id: `${page} · ${overrides.variation.experiment} · ${overrides.variation.name}`, kind: "variation" };
  const consent = overrides.consent?.unit;
  return consent === "reject" || consent === "gpc"
    ? { id: `${page}.${consent}`, kind: consent }
    : { id: page, kind: "page" };
}

/** A call made directly on the ready SDK, with `overrides` applied. */
export function callWith(overrides: Partial<CapturedCall> = {}): CapturedCall {
  return {
    kind: "track",
    method: overrides.kind ?? "track",
    name: "signup_success",
    properties: {},
    atMs: 500,
    state: "direct",
    documentUrl: "http://127.0.0.1:47412/signup",
    ...overrides,
  };
}

/** A collect request that carried the given calls and got `status`. */
export function collectOf(
  calls: readonly CapturedCall[],
  status: number | null = 202,
  failure: string | null = null,
): CollectRequest {
  return {
    url: "http://127.0.0.1:47411/v1/collect",
    method: "POST",
    atMs: 600,
    status,
    failure,
    events: calls.map((call) => ({ strings: [call.kind, call.name ?? ""], raw: { kind: call.kind, name: call.name } })),
    decodeError: null,
    intercepted: false,
  };
}

/** The plan of `spec` as `run` makes it for the shop's spec file on staging; `chosen` names other pages, viewports or a base URL. */
export function plannedTarget(
  spec: AuditSpec,
  chosen: Partial<Parameters<typeof planTarget>[0]> = {},
): ReturnType<typeof planTarget> {
  return planTarget({
    specFile: "audits/shop.yaml",
    slug: "shop",
    spec,
    specSha256: "0".repeat(64),
    environment: "staging",
    baseUrl: "http://127.0.0.1:47412",
    pages: spec.pages.map((page) => page.id),
    viewports: spec.viewports,
    ...chosen,
  });
}

/** A check context over these pages (and what the service API said, and the variations' previews, when given), with the plan of every page of the spec in `environment`. */
export function contextOf(
  pages: PageArtifacts[],
  spec: AuditSpec = specWith(),
  api: ApiArtifacts | null = null,
  variations: PageArtifacts[] = [],
  environment = "staging",
): AuditContext {
  const { domain, units } = planTarget({
    specFile: "audits/demo.yaml",
    slug: "demo",
    spec,
    specSha256: "",
    environment,
    baseUrl: spec.environments[environment]!.baseUrl,
    pages: spec.pages.map((page) => page.id),
    viewports: spec.viewports,
  });
  // Each call's delivery reconciled once, as a run does: the pages' first, then the previews'.
  const judged = reconcileDeliveries(
    [...pages, ...variations.map((preview) => previewOf(preview, units))],
    ingestedEvents(api),
  );
  return {
    spec,
    specFile: "audits/demo.yaml",
    environment,
    domain,
    units,
    pages: judged.slice(0, pages.length),
    variations: judged.slice(pages.length),
    api,
  };
}

/** A test's preview as the plan names it: the unit planned for its page, experiment and variation. */
function previewOf(preview: PageArtifacts, units: readonly AuditUnit[]): PageArtifacts {
  const planned = units.find(
    (unit) =>
      unit.page === preview.page &&
      unit.variation?.experiment === preview.variation?.experiment &&
      unit.variation?.name === preview.variation?.name,
  );
  return planned === undefined ? preview : { ...preview, unit: { id: planned.id, kind: planned.kind } };
}

/** A successful API exchange that answered `data`. */
export function exchangeOf<T>(data: T[], url = "http://127.0.0.1:47411/v1/projects"): ApiExchange<T> {
  return { url, attempts: 1, durationMs: 12, status: 200, data, failure: null };
}

/** Elements as the service answers them (`{ "data": elements }`), validated and normalised as the API gatherer does. */
export function normalised<T>(schema: z.ZodType<{ data: T[] }>, elements: unknown[]): T[] {
  return schema.parse({ data: elements }).data;
}

/** A failed API exchange. */
export function failedExchange(
  failure: ApiFailure,
  attempts = 1,
  url = "http://127.0.0.1:47411/v1/projects",
): ApiExchange<never> {
  return { url, attempts, durationMs: 40, status: failure.status, data: null, failure };
}

/** What the service API says about the demo project when all is well, with `overrides` applied. */
export function apiWith(overrides: Partial<ApiArtifacts> = {}): ApiArtifacts {
  return {
    keyEnv: "SERVICE_API_KEY",
    keySet: true,
    startedAt: "2030-01-01T10:00:00.000Z",
    projects: exchangeOf(
      normalised(projectListSchema, [
        {
          id: "p_1001",
          key: "prj_demo_staging",
          name: "Demo shop (staging)",
          domain: "127.0.0.1",
          workspace: { id: "ws_1", name: "Acme Marketing" },
        },
      ]),
    ),
    goals: exchangeOf(
      normalised(goalListSchema, [{ name: "Signup completed", condition: { equals: "signup_success" } }]),
      "http://127.0.0.1:47411/v1/projects/prj_demo_staging/goals",
    ),
    recentEvents: null,
    report: null,
    ...overrides,
  };
}

/** The demo spec with an `api` section (`apiOverrides` merged into it). */
export function specWithApi(apiOverrides: Record<string, unknown> = {}): AuditSpec {
  return specWith({
    api: {
      baseUrl: "http://127.0.0.1:47411",
      keyEnv: "SERVICE_API_KEY",
      goalsPath: "/v1/projects/{project}/goals",
      ...apiOverrides,
    },
  });
}
