import { expect, test } from "@playwright/test";
import type { PageArtifacts } from "../../src/artifacts/types.js";
import type { KeyChoice } from "../../src/init/key-discovery.js";
import { detectSdk } from "../../src/init/sdk-detection.js";
import { draftSdk, draftSpec, type DraftInputs, type ServiceFacts } from "../../src/init/spec-draft.js";
import { specText } from "../../src/init/spec-text.js";
import { knownViewports } from "../../src/browser/viewports.js";
import { parseSpec } from "../../src/audit-spec/load.js";
import type { AuditSpec } from "../../src/audit-spec/schema.js";
import { callWith, pageWith } from "../support/artifacts.js";
import { globalWith, lookWith, requestWith } from "../support/first-look.js";

/** The spec init writes: it validates, says where each value came from, and marks every guess `# check:`. */

const SERVICE_SDK = globalWith({
  name: "expsvc",
  methods: ["track", "identify", "ready"],
  definedBy: "https://svc.example.test/sdk/v1/sdk.js",
});
const SEGMENT_SCRIPT = "https://cdn.segment.com/analytics.js/v1/wk_seg_1/analytics.min.js";
const genericSdk = draftSdk(
  detectSdk(lookWith({ globals: [SERVICE_SDK] })),
  { urls: ["https://svc.example.test/v1/collect"], delayMs: 120 },
  [],
)!;
const installed: KeyChoice = {
  installed: {
    key: "prj_site_1",
    places: [{ page: "home", viewport: "desktop", where: "script-tag", detail: "data-project-key" }],
    units: ["home · desktop", "home · mobile"],
  },
  others: [],
  loadedUnits: 2,
};

function unitsOf(page: string, path: string, overrides: Partial<PageArtifacts> = {}): PageArtifacts[] {
  return ["desktop", "mobile"].map((viewport) =>
    pageWith({ page, viewport, requestedUrl: `https://shop.example.test${path}`, ...overrides }),
  );
}

function inputs(overrides: Partial<DraftInputs> = {}): DraftInputs {
  return {
    url: "https://shop.example.test/",
    baseUrl: "https://shop.example.test",
    file: "audits/shop.example.test.yaml",
    schemaPath: "./spec.schema.json",
    environment: "production",
    sdk: genericSdk,
    key: installed,
    pages: [{ id: "home", path: "/" }],
    artifacts: unitsOf("home", "/"),
    service: null,
    basic: null,
    ...overrides,
  };
}

function written(overrides: Partial<DraftInputs> = {}): {
  text: string;
  spec: AuditSpec;
  line: (start: string) => string;
} {
  const text = specText(draftSpec(inputs(overrides)));
  const parsed = parseSpec(text, "audits/shop.example.test.yaml", knownViewports());
  if (!parsed.ok) throw new Error(`the drafted spec does not validate: ${JSON.stringify(parsed.errors)}\n${text}`);
  const line = (start: string) => text.split("\n").find((candidate) => candidate.trimStart().startsWith(start)) ?? "";
  return { text, spec: parsed.spec, line };
}

test("the first line points editors at the JSON Schema; the environment holds the key and the base URL", () => {
  const { text, spec, line } = written();
  expect(text.split("\n")[0]).toBe("# yaml-language-server: $schema=./spec.schema.json");
  expect(spec.environments).toEqual({ production: { key: "prj_site_1", baseUrl: "https://shop.example.test" } });
  expect(line("key:")).not.toContain("check:");
  expect(line("key:")).toContain("# seen on 2 of 2 page × viewport(s), in: the SDK's script tag");
});

test("a Basic-auth site's environment gets the auth section with the variables' names (--basic-env)", () => {
  const { spec, line } = written({ basic: { usernameEnv: "STAGING_USER", passwordEnv: "STAGING_PASSWORD" } });
  expect(spec.environments.production!.auth).toEqual({
    basic: { usernameEnv: "STAGING_USER", passwordEnv: "STAGING_PASSWORD" },
  });
  expect(line("basic:")).toContain("# the NAMES of the variables that hold them, never the secrets");
});

test("a generic SDK gets every field, each guess marked check", () => {
  const { spec, line } = written();
  expect(spec.sdk).toMatchObject({
    preset: null,
    script: "**/sdk/v1/sdk.js",
    global: "expsvc",
    track: ["track"],
    identify: ["identify"],
    collect: "**/v1/collect",
  });
  for (const field of ["script:", "track:", "identify:", "collect:"]) expect(line(field), field).toContain("# check:");
  expect(line("collect:")).toContain("https://svc.example.test/v1/collect");
});

test("a generic SDK whose probe call left nothing gets a collect placeholder; a slow one a longer delivery bound", () => {
  const silent = draftSdk(detectSdk(lookWith({ globals: [SERVICE_SDK] })), { urls: [], delayMs: null }, [])!;
  expect(written({ sdk: silent }).line("collect:")).toMatch(
    /^ {2}collect: "\*\*\/collect" {2}# check: no request carried the probe call/,
  );
  const slow = draftSdk(
    detectSdk(lookWith({ globals: [SERVICE_SDK] })),
    { urls: ["https://svc.example.test/v1/collect"], delayMs: 4200 },
    [],
  )!;
  expect(written({ sdk: slow }).spec.sdk.deliveryTimeoutMs).toBe(9000);
});

test("a preset is one line; another SDK on the page is named in a comment", () => {
  const segment = globalWith({ name: "analytics", methods: ["track", "identify"], definedBy: SEGMENT_SCRIPT });
  const sdk = draftSdk(
    detectSdk(
      lookWith({ globals: [segment, SERVICE_SDK], requests: [requestWith(SEGMENT_SCRIPT)], readyPresets: ["segment"] }),
    ),
    null,
    ["wk_seg_1"],
  )!;
  const { text, spec, line } = written({ sdk });
  expect(spec.sdk).toMatchObject({ preset: "segment", global: "analytics", track: ["track"] });
  expect(text).not.toMatch(/^ {2}(script|global|collect):/m);
  expect(line("preset:")).toContain(SEGMENT_SCRIPT);
  expect(line("# Also on the page: window.expsvc")).toContain("another SDK");
});

test("a preset whose script glob matched no script gets the script that defines its global, marked check", () => {
  const selfHosted = globalWith({
    name: "mixpanel",
    methods: ["track", "identify", "people.set"],
    definedBy: "https://shop.example.test/js/mp.8f3a2b1c9d.js",
  });
  const sdk = draftSdk(detectSdk(lookWith({ globals: [selfHosted], readyPresets: ["mixpanel"] })), null, [])!;
  const { spec, line } = written({ sdk });
  expect(spec.sdk).toMatchObject({ preset: "mixpanel", script: "**/js/mp.*.js" });
  expect(line("script:")).toContain("# check:");
});

test("without --api, workspace and project are placeholders marked check, and there is no api section", () => {
  const { spec, line } = written();
  expect(spec.api).toBeUndefined();
  expect(line("workspace:")).toContain("# check: placeholder");
  expect(line("project:")).toContain("# check: placeholder");
});

test("with --api, the service's workspace, project and endpoints are written; a goal that fired is a goal, one that did not is a comment", () => {
  const service: ServiceFacts = {
    baseUrl: "https://api.example.test",
    keyEnv: "SERVICE_API_KEY",
    workspace: "Acme Marketing",
    project: "Shop (production)",
    projectKey: "prj_service_9",
    goals: [
      { name: "Offer seen", event: "offer_seen" },
      { name: "Signup completed", event: "signup_success" },
    ],
    goalsPath: "/v1/projects/{project}/goals",
    recentEventsPath: null,
    problem: null,
  };
  const { text, spec } = written({
    service,
    artifacts: unitsOf("home", "/", { calls: [callWith({ name: "offer_seen" })] }),
  });
  expect(spec.workspace).toBe("Acme Marketing");
  expect(spec.project).toBe("Shop (production)");
  expect(spec.environments.production?.projectKey).toBe("prj_service_9");
  expect(spec.api).toMatchObject({
    baseUrl: "https://api.example.test",
    keyEnv: "SERVICE_API_KEY",
    goalsPath: "/v1/projects/{project}/goals",
  });
  expect(spec.api?.recentEventsPath).toBeUndefined();
  expect(spec.goals).toEqual([{ name: "Offer seen", event: "offer_seen" }]);
  expect(text).toMatch(/^# {3}- \{ name: "Signup completed", event: signup_success \}/m);
});

test("a service that could not say leaves the placeholders, saying why", () => {
  const service: ServiceFacts = {
    baseUrl: "https://api.example.test",
    keyEnv: "K",
    workspace: null,
    project: null,
    projectKey: null,
    goals: null,
    goalsPath: null,
    recentEventsPath: null,
    problem: "no project in its list names the key",
  };
  const { spec, line } = written({ service });
  expect(spec.api).toEqual(expect.objectContaining({ baseUrl: "https://api.example.test", keyEnv: "K" }));
  expect(line("workspace:")).toContain("no project in its list names the key");
});

test("other keys seen are named for a check; without any key a placeholder says where init looked", () => {
  const withOther: KeyChoice = {
    ...installed,
    others: [{ key: "prj_prod_2", places: [], units: ["promo · desktop"] }],
  };
  const { text, line } = written({ key: withOther });
  expect(text).toContain("# check: another key, prj_prod_2, is on promo · desktop");
  expect(line("key:")).toContain("# check:");
  const none = written({ key: { installed: null, others: [], loadedUnits: 2 } });
  expect(none.spec.environments.production?.key).toBe("YOUR-PROJECT-KEY");
  expect(none.line("key:")).toContain(
    "# check: no key was seen where sdk.key looks (the SDK's script URL, the SDK's script tag, the SDK's init call, the SDK global, a collect request, a collect request's header)",
  );
});

test("pages expect what fired on both viewports; a page that did not load says so; identify.required leaves personal data out", () => {
  const identify = callWith({
    kind: "identify",
    method: "identify",
    name: "u_1",
    properties: { plan: "pro", contact: "jane.doe@example.org" },
  });
  const artifacts = [
    ...unitsOf("home", "/"),
    ...unitsOf("account", "/account?tab=1", { calls: [callWith({ name: "account_seen" }), identify] }),
    pageWith({ page: "gone", viewport: "desktop", loadError: "the server answered HTTP 500" }),
    pageWith({ page: "gone", viewport: "mobile", loadError: "the server answered HTTP 500" }),
  ];
  const pages = [
    { id: "home", path: "/" },
    { id: "account-tab-1", path: "/account?tab=1" },
    { id: "gone", path: "/gone" },
  ];
  const { text, spec, line } = written({
    pages,
    artifacts: artifacts.map((unit) => (unit.page === "account" ? { ...unit, page: "account-tab-1" } : unit)),
  });
  expect(spec.pages).toEqual([
    { id: "home", path: "/", steps: [] },
    { id: "account-tab-1", path: "/account?tab=1", steps: [], expect: { track: ["account_seen"], identify: true } },
    { id: "gone", path: "/gone", steps: [] },
  ]);
  expect(line("path: /gone")).toContain(
    "# check: did not load when init opened it on desktop: the server answered HTTP 500",
  );
  expect(line("expect:")).toContain("# check:");
  expect(spec.identify.required).toEqual(["plan"]);
  expect(text).toContain("# Personal data seen in identify, never required: contact.");
});

test("values YAML would read otherwise are quoted and read back as written", () => {
  const key: KeyChoice = { ...installed, installed: { ...installed.installed!, key: "1234567_true" } };
  const { spec } = written({ key, pages: [{ id: "yes", path: "/a: b #c" }], artifacts: unitsOf("yes", "/a: b #c") });
  expect(spec.environments.production?.key).toBe("1234567_true");
  expect(spec.pages[0]).toMatchObject({ id: "yes", path: "/a: b #c" });
});

test("a site that sent page views gets sdk.pageViews, marked check; one that sent none does not", () => {
  const pageView = callWith({ kind: "page", method: "page", name: null, properties: null });
  const sending = written({ artifacts: unitsOf("home", "/", { calls: [pageView] }) });
  expect(sending.spec.sdk.pageViews).toBe(true);
  // A site without a preset: the method that sent them tells page views.
  expect(sending.spec.sdk.page).toEqual(["page"]);
  expect(sending.line("pageViews:")).toBe(
    "  pageViews: true  # check: page views were sent on 2 of 2 page × viewport(s) loaded: one per route is judged (events.pageviews)",
  );
  expect(written().spec.sdk.pageViews).toBe(false);
});

test("a single-page app's journey through its first in-app link is written as the page's steps, and the page views its route change sent count", () => {
  const pageView = callWith({ kind: "page", method: "page", name: null, properties: null });
  const journey = {
    page: "home",
    steps: { click: "#nav-pricing", waitForUrl: "**/app/pricing" },
    artifacts: unitsOf("home", "/", { calls: [pageView] }),
  };
  const spa = written({ journey });
  expect(spa.spec.pages[0]!.steps).toEqual([{ click: "#nav-pricing" }, { waitForUrl: "**/app/pricing" }]);
  expect(spa.line("steps:")).toBe(
    "    steps:  # check: the page's first link to another route, followed without a new document on desktop and mobile: events.pageviews judges the route change",
  );
  // No page view on load, one on the route change: page views are judged all the same.
  expect(spa.spec.sdk.pageViews).toBe(true);
  expect(spa.line("pageViews:")).toBe(
    "  pageViews: true  # check: page views were sent on 0 of 2 page × viewport(s) loaded and on the journey's route change: one per route is judged (events.pageviews)",
  );
  // A journey on another page leaves this one without steps.
  expect(written({ journey: { ...journey, page: "pricing" } }).spec.pages[0]!.steps).toEqual([]);
});

test("an experimentation SDK gets its preset, the key its clients were made with, and an experiment per flag evaluated, on the first page that did", () => {
  const seen = (key: string, flags: string[]) => ({
    experimentSdk: {
      inits: [{ method: "Statsig.StatsigClient", key, atMs: 100, readyAtMs: 400 }],
      evaluations: flags.map((flag) => ({
        method: "getExperiment",
        flag,
        variation: "a",
        reason: "Network:Recognized",
        atMs: 410,
      })),
    },
  });
  const artifacts = [
    ...unitsOf("home", "/", seen("client-prod", ["hero_copy"])),
    ...unitsOf("pricing", "/pricing", seen("client-prod", ["hero_copy", "pricing_cta"])),
  ];
  const { text, spec, line } = written({
    experimentSdk: "statsig",
    pages: [
      { id: "home", path: "/" },
      { id: "pricing", path: "/pricing" },
    ],
    artifacts,
  });
  expect(spec.experimentSdk?.preset).toBe("statsig");
  expect(spec.environments.production?.experimentKey).toBe("client-prod");
  expect(line("experimentKey:")).toBe(
    "    experimentKey: client-prod  # its client was made with it on 4 of 4 page × viewport(s)",
  );
  expect(spec.experiments.map(({ name, page, selector, flag }) => ({ name, page, selector, flag }))).toEqual([
    { name: "hero_copy", page: "home", selector: "body", flag: "hero_copy" },
    { name: "pricing_cta", page: "pricing", selector: "body", flag: "pricing_cta" },
  ]);
  expect(text).toContain("  - name: hero_copy  # check: the experiment's name as your team calls it\n");
  expect(text).toContain("    selector: body  # check: the element the experiment changes\n");

  // Another key on one page: the majority's, marked for a check, naming the other.
  const mixed = written({
    experimentSdk: "statsig",
    pages: [
      { id: "home", path: "/" },
      { id: "pricing", path: "/pricing" },
    ],
    artifacts: [
      ...unitsOf("home", "/", seen("client-prod", [])),
      ...unitsOf("pricing", "/pricing", seen("client-stg", [])),
    ],
  });
  expect(mixed.line("experimentKey:")).toMatch(/# check: .*also client-(stg|prod): another environment's key\?/);
  expect(mixed.spec.experiments).toEqual([]);
  // None made: no key, and the preset alone.
  const none = written({ experimentSdk: "launchdarkly" });
  expect(none.spec.experimentSdk?.preset).toBe("launchdarkly");
  expect(none.spec.environments.production?.experimentKey).toBeUndefined();
});

test("flags the analytics SDK logs itself (PostHog's) are drafted where a page evaluated one, under the analytics SDK's key; without one, there is no experimentSdk", () => {
  const logged = (flags: string[]) => ({
    experimentSdk: {
      inits: [{ method: "init", key: "phc_shop", atMs: 100, readyAtMs: 400 }],
      evaluations: flags.map((flag) => ({
        method: "$feature_flag_called",
        flag,
        variation: "cta_long",
        reason: "condition_match",
        clientReady: true,
        atMs: 410,
      })),
    },
  });
  const pages = [
    { id: "home", path: "/" },
    { id: "pricing", path: "/pricing" },
  ];
  const posthog = globalWith({
    name: "posthog",
    methods: ["capture", "identify", "getFeatureFlag"],
    definedBy: "https://shop.example.test/static/array.js",
  });
  const sdk = draftSdk(detectSdk(lookWith({ globals: [posthog], readyPresets: ["posthog"] })), null, [])!;
  const flagged = written({
    sdk,
    experimentSdk: "posthog",
    pages,
    artifacts: [...unitsOf("home", "/", logged([])), ...unitsOf("pricing", "/pricing", logged(["pricing_cta"]))],
  });
  expect(flagged.spec.experimentSdk?.preset).toBe("posthog");
  expect(flagged.line("preset: posthog  # the pages")).toBe(
    "  preset: posthog  # the pages evaluated flags of PostHog feature flags (posthog-js)",
  );
  expect(flagged.spec.environments.production?.experimentKey).toBeUndefined();
  expect(flagged.spec.experiments.map(({ page, flag }) => ({ page, flag }))).toEqual([
    { page: "pricing", flag: "pricing_cta" },
  ]);

  const analyticsOnly = written({ sdk, experimentSdk: "posthog", pages, artifacts: unitsOf("home", "/", logged([])) });
  expect(analyticsOnly.spec.experimentSdk).toBeUndefined();
  expect(analyticsOnly.text).not.toMatch(/^experimentSdk:/m);
});
