import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { CHECK_IDS } from "../../src/findings/finding.js";
import { knownViewports } from "../../src/browser/viewports.js";
import {
  formatSpecError,
  loadSpec,
  loadSpecs,
  parseSpec,
  type SpecLoadResult,
  type SpecParseResult,
} from "../../src/audit-spec/load.js";
import { PRESETS } from "../../src/vendors/presets.js";
import { MINIMAL, minimalWith } from "../support/spec-text.js";

const specsDir = fileURLToPath(new URL("./specs/", import.meta.url));

/** The errors of an invalid spec as the CLI prints them, the file always named spec.yaml. */
function printed(result: SpecParseResult | SpecLoadResult): string[] {
  if (result.ok) throw new Error("expected the spec to be invalid");
  return result.errors.map((error) => formatSpecError({ ...error, file: "spec.yaml" }));
}

function parse(text: string): SpecParseResult {
  return parseSpec(text, "spec.yaml", knownViewports());
}

test.describe("a valid spec", () => {
  test("loads the full example with its defaults applied", async () => {
    const result = await loadSpec(`${specsDir}valid.yaml`, knownViewports());
    if (!result.ok) throw new Error(result.errors.map(formatSpecError).join("\n"));
    const { spec } = result;
    expect(result.file).toBe(`${specsDir}valid.yaml`);
    // The digest the report shows is the one `sha256sum` gives for the file.
    expect(result.sha256).toBe(
      createHash("sha256")
        .update(readFileSync(`${specsDir}valid.yaml`))
        .digest("hex"),
    );
    expect(spec.environments.staging).toEqual({ key: "prj_demo_staging", baseUrl: "http://127.0.0.1:47412" });
    expect(spec.api).toEqual({
      baseUrl: "http://127.0.0.1:47411",
      keyEnv: "SERVICE_API_KEY",
      goalsPath: "/v1/projects/{project}/goals",
      recentEventsPath: "/v1/projects/{project}/events",
    });
    expect(spec.sdk.deliveryTimeoutMs).toBe(6000);
    expect(spec.viewports).toEqual(["desktop", "mobile"]);
    expect(spec.identify).toEqual({ required: ["plan", "account_type"], allowPersonalData: [] });
    expect(spec.pages.map((page) => [page.id, page.steps.length])).toEqual([
      ["home", 0],
      ["pricing", 0],
      ["signup", 3],
    ]);
    expect(spec.pages[2]?.steps[0]).toEqual({ fill: { selector: "#email", value: "qa@example.test", canary: true } });
    expect(spec.pages[2]?.expect).toEqual({ track: ["signup_success"], identify: true });
    expect(spec.checks).toEqual({ "page.errors": "warn" });
  });

  test("needs no defaultEnvironment, goals, experiments or checks when it has one environment", () => {
    const result = parse(minimalWith({}));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.spec).toMatchObject({
      goals: [],
      experiments: [],
      checks: {},
      identify: { required: [], allowPersonalData: [] },
    });
  });

  test("accepts a Playwright device name as a viewport", () => {
    expect(parse(minimalWith({}, 'viewports: [desktop, "Pixel 7"]')).ok).toBe(true);
  });
});

test.describe("YAML syntax", () => {
  test("names the line and column where yaml found the error", async () => {
    const result = await loadSpec(`${specsDir}syntax-error.yaml`, knownViewports());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]).toEqual({
      file: `${specsDir}syntax-error.yaml`,
      line: 16,
      column: 4,
      path: "",
      message: "invalid YAML: All sequence items must start at the same column",
    });
  });

  test("points at an unclosed flow list", () => {
    expect(printed(parse("workspace: a\nviewports: [desktop, mobile\nproject: b\n"))[0]).toMatch(
      /^spec\.yaml:3:1 invalid YAML: Flow sequence/,
    );
  });

  test("reports a duplicate key at its second occurrence, with the mapping's path", () => {
    expect(printed(parse(minimalWith({ 10: ["  track: track", "  global: other"] })))).toEqual([
      'spec.yaml:11:3 sdk: duplicate key "global": a key may appear only once in a mapping',
    ]);
  });

  test("reports a duplicate key at the root without a path", () => {
    expect(printed(parse(minimalWith({}, "project: Other")))).toEqual([
      'spec.yaml:16:1 duplicate key "project": a key may appear only once in a mapping',
    ]);
  });

  test("says an empty file is an empty spec", () => {
    const empty = [
      "spec.yaml:1:1 the spec is empty: it needs at least workspace, project, environments, sdk and pages",
    ];
    expect(printed(parse(""))).toEqual(empty);
    expect(printed(parse("# to do\n"))).toEqual(empty);
    expect(printed(parse("---\n"))).toEqual(empty);
  });

  test("says a spec must be a mapping when it is a list", () => {
    expect(printed(parse("- workspace: a\n"))).toEqual(["spec.yaml:1:1 the spec must be a mapping, not a list"]);
  });
});

test.describe("unknown keys", () => {
  test("name the key they were probably meant to be, at the misspelled key itself", async () => {
    const result = await loadSpec(`${specsDir}misspelled-key.yaml`, knownViewports());
    // No "missing required field" alongside: the did-you-mean already says what to write.
    expect(printed(result)).toEqual([
      'spec.yaml:9:3 sdk: unknown key "glboal" — did you mean "global"?',
      'spec.yaml:13:1 unknown key "pgaes" — did you mean "pages"?',
    ]);
  });

  test("ignore case and separators when guessing", () => {
    expect(printed(parse(minimalWith({ 6: "    baseURL: http://127.0.0.1:47412" })))).toEqual([
      'spec.yaml:6:5 environments.staging: unknown key "baseURL" — did you mean "baseUrl"?',
    ]);
  });

  test("list the allowed keys when none is close", () => {
    expect(printed(parse(minimalWith({}, "owner: me")))).toEqual([
      'spec.yaml:16:1 unknown key "owner" — allowed keys: workspace, project, environments, defaultEnvironment, api, report, sdk, experimentSdk, consent, traffic, viewports, screenshots, goals, experiments, identify, trackingPlan, pages, checks',
    ]);
  });

  test("are found inside a journey step", () => {
    const steps = [
      "    steps:",
      '      - clik: "#submit"',
      "      - fill: { selector: '#email', value: x, canery: true }",
    ];
    expect(printed(parse(minimalWith({}, ...steps)))).toEqual([
      'spec.yaml:17:9 pages[0].steps[0]: unknown key "clik" — did you mean "click"?',
      'spec.yaml:18:47 pages[0].steps[1].fill: unknown key "canery" — did you mean "canary"?',
    ]);
  });
});

test.describe("wrong types", () => {
  test("are shown at the value, in plain words", async () => {
    expect(printed(await loadSpec(`${specsDir}wrong-type.yaml`, knownViewports()))).toEqual([
      'spec.yaml:13:22 sdk.deliveryTimeoutMs: must be a number, not text ("soon")',
      'spec.yaml:14:8 pages: must be a list, not text ("home")',
    ]);
  });

  test("show an empty value at its key", () => {
    expect(printed(parse(minimalWith({ 7: "sdk:", 8: [], 9: [], 10: [], 11: [], 12: [] })))).toEqual([
      "spec.yaml:7:1 sdk: must be a mapping, not empty",
    ]);
  });

  test("say what a number, a boolean and a step must be", () => {
    expect(
      printed(
        parse(
          minimalWith(
            { 12: ['  collect: "**/v1/collect"', "  deliveryTimeoutMs: 1.5"] },
            "    steps:",
            "      - click: 3",
            "      - submit the form",
            "    expect: { identify: yes }",
          ),
        ),
      ),
    ).toEqual([
      "spec.yaml:13:22 sdk.deliveryTimeoutMs: must be a whole number, not 1.5",
      "spec.yaml:18:16 pages[0].steps[0].click: must be text, not a number (3)",
      'spec.yaml:19:9 pages[0].steps[1]: must be a mapping with one of the keys "fill", "click", "waitForEvent", "waitFor", "goto", "back", "forward", "waitForUrl", not text ("submit the form")',
      'spec.yaml:20:25 pages[0].expect.identify: must be true or false, not text ("yes")',
    ]);
  });

  test("explain the schema's own formats", () => {
    expect(printed(parse(minimalWith({ 6: "    baseUrl: 127.0.0.1:47412", 15: "    path: signup" })))).toEqual([
      "spec.yaml:6:14 environments.staging.baseUrl: must be an http(s) URL, like http://127.0.0.1:47412",
      "spec.yaml:15:11 pages[0].path: must be a path on the site that starts with a single '/', like /signup",
    ]);
  });
});

test.describe("missing required fields", () => {
  test("are named at the mapping that lacks them", () => {
    expect(printed(parse(minimalWith({ 12: [], 15: [] })))).toEqual([
      'spec.yaml:7:1 sdk: missing required field "collect": give it, or name a vendor in sdk.preset (segment | mixpanel | posthog | rudderstack | amplitude) to fill it',
      'spec.yaml:13:5 pages[0]: missing required field "path"',
    ]);
  });

  test("of one mapping are named together", () => {
    expect(printed(parse(minimalWith({ 11: [], 12: [] })))).toEqual([
      'spec.yaml:7:1 sdk: missing required fields "identify", "collect": give them, or name a vendor in sdk.preset (segment | mixpanel | posthog | rudderstack | amplitude) to fill them',
    ]);
  });

  test("at the root are named at the first line", () => {
    expect(printed(parse(minimalWith({ 13: [], 14: [], 15: [] })))).toEqual([
      'spec.yaml:1:1 missing required field "pages"',
    ]);
  });

  test("include defaultEnvironment once there are several environments", () => {
    const production = ["  production:", "    key: prj_demo_prod", "    baseUrl: https://shop.example.test"];
    expect(printed(parse(minimalWith({ 6: [MINIMAL[5]!, ...production] })))).toEqual([
      "spec.yaml:1:1 defaultEnvironment: is required when there are several environments (one of: staging, production)",
    ]);
  });
});

test.describe("environments", () => {
  test("must not share a project key", () => {
    const production = ["  production:", "    key: prj_demo_staging", "    baseUrl: https://shop.example.test"];
    const shared = minimalWith({ 6: [MINIMAL[5]!, ...production] }, "defaultEnvironment: staging");
    expect(printed(parse(shared))).toEqual([
      'spec.yaml:8:10 environments.production.key: is the same key as environment "staging": staging and production must never share a key',
    ]);
  });

  test("have names made of letters, digits, '_' or '-'", () => {
    expect(printed(parse(minimalWith({ 4: "  stag ing:" })))).toEqual([
      `spec.yaml:4:3 environments: "stag ing" is not a valid name: environment names are letters, digits, '_' or '-'`,
    ]);
  });

  test("need at least one entry", () => {
    expect(printed(parse(minimalWith({ 3: "environments: {}", 4: [], 5: [], 6: [] })))).toEqual([
      "spec.yaml:3:15 environments: needs at least one environment",
    ]);
  });
});

test.describe("the API key", () => {
  const neverInSpec =
    "never put the API key in the spec: put it in an environment variable and name that variable in api.keyEnv";
  const api = ["api:", "  baseUrl: http://127.0.0.1:47411", "  keyEnv: SERVICE_API_KEY"];

  test("is refused as api.key", () => {
    expect(printed(parse(minimalWith({}, ...api, "  key: sk_live_51x")))).toEqual([
      `spec.yaml:19:3 api: unknown key "key" — ${neverInSpec}`,
    ]);
  });

  test("is refused as api.apiKey", () => {
    expect(printed(parse(minimalWith({}, ...api, "  apiKey: sk_live_51x")))).toEqual([
      `spec.yaml:19:3 api: unknown key "apiKey" — ${neverInSpec}`,
    ]);
  });

  test("is refused as a top-level apiKey", () => {
    expect(printed(parse(minimalWith({}, "apiKey: sk_live_51x")))).toEqual([
      `spec.yaml:16:1 unknown key "apiKey" — ${neverInSpec}`,
    ]);
  });

  test("variable must be a name, not a key", () => {
    expect(printed(parse(minimalWith({}, api[0]!, api[1]!, "  keyEnv: sk-live-51x")))).toEqual([
      "spec.yaml:18:11 api.keyEnv: must be the NAME of an environment variable that holds the key (like SERVICE_API_KEY), never the key itself",
    ]);
  });
});

test.describe("checks", () => {
  test("guess the check id that was meant", () => {
    expect(printed(parse(minimalWith({}, "checks:", "  sdk.ordr: warn")))).toEqual([
      'spec.yaml:17:3 checks: unknown check id "sdk.ordr" — did you mean "sdk.order"?',
    ]);
  });

  test("list the known ids when none is close", () => {
    expect(printed(parse(minimalWith({}, "checks:", "  lighthouse: off")))[0]).toBe(
      `spec.yaml:17:3 checks: unknown check id "lighthouse" — known ids: ${CHECK_IDS.join(", ")}`,
    );
  });

  test("list the allowed severities of an invalid one", () => {
    expect(printed(parse(minimalWith({}, "checks:", "  page.errors: wran", "  sdk.order: error")))).toEqual([
      'spec.yaml:17:16 checks["page.errors"]: must be one of "off", "warn", "fail", not text ("wran") — did you mean "warn"?',
      'spec.yaml:18:14 checks["sdk.order"]: must be one of "off", "warn", "fail", not text ("error")',
    ]);
  });
});

test.describe("globs", () => {
  test("an unclosed or stray brace is refused at the glob, saying where in it and what to write", () => {
    expect(
      printed(
        parse(
          minimalWith({
            8: '  script: "**/sdk/{v1,v2/sdk.js"',
            12: ['  collect: "**/v1/collect}"', '  storage: [expsvc_*, "{a,{b}}"]'],
          }),
        ),
      ),
    ).toEqual([
      'spec.yaml:8:11 sdk.script: "{" at character 8 is never closed: close the group with "}" ({a,b} matches a or b), or remove it',
      'spec.yaml:12:12 sdk.collect: "}" at character 14 closes no group: remove it, or open the group with "{" ({a,b} matches a or b)',
      'spec.yaml:13:23 sdk.storage[1]: "{" at character 4 opens a group inside the one opened at character 1: groups do not nest, write one {a,b} with every choice in it',
    ]);
  });

  test("balanced groups load", () => {
    expect(
      parse(minimalWith({ 12: ['  collect: "**/v1/{collect,batch}"', '  storage: ["expsvc_{id,session}"]'] })).ok,
    ).toBe(true);
  });
});

test.describe("viewports", () => {
  test("must be desktop, mobile or a Playwright device name", () => {
    expect(printed(parse(minimalWith({}, "viewports: [desktop, dekstop, fridge]")))).toEqual([
      'spec.yaml:16:22 viewports[1]: unknown viewport "dekstop" — did you mean "desktop"?',
      'spec.yaml:16:31 viewports[2]: unknown viewport "fridge" — use desktop, mobile or a Playwright device name',
    ]);
  });
});

test.describe("report", () => {
  const api = ["api:", "  baseUrl: http://127.0.0.1:47411", "  keyEnv: SERVICE_API_KEY"];
  const loaded = (text: string) => {
    const result = parse(text);
    if (!result.ok) throw new Error(printed(result).join("\n"));
    return result.spec.report;
  };

  test("reads an API path or a file, with the SRM defaults applied", () => {
    expect(loaded(minimalWith({}, ...api, "report:", "  path: /v1/projects/{projectId}/report"))).toEqual({
      path: "/v1/projects/{projectId}/report",
      srm: { alpha: 0.001, minimumVisitors: 100 },
    });
    expect(loaded(minimalWith({}, "report:", "  file: exports/report.json", "  srm: { alpha: 0.01 }"))).toEqual({
      file: "exports/report.json",
      srm: { alpha: 0.01, minimumVisitors: 100 },
    });
  });

  test("needs exactly one of path and file", () => {
    expect(printed(parse(minimalWith({}, "report:", "  srm: { alpha: 0.01 }")))).toEqual([
      "spec.yaml:16:1 report: needs path (an API path, like /v1/projects/{project}/report) or file (an exported JSON file, relative to the spec)",
    ]);
    expect(printed(parse(minimalWith({}, ...api, "report:", "  path: /v1/report", "  file: report.json")))).toEqual([
      "spec.yaml:19:1 report: names both path and file: keep the one the report data should come from",
    ]);
  });

  test("path needs the api section and its placeholders", () => {
    expect(printed(parse(minimalWith({}, "report:", "  path: /v1/projects/{project}/report")))).toEqual([
      "spec.yaml:17:9 report.path: needs the api section (baseUrl, keyEnv) to ask the service; or point report.file at an exported JSON file instead",
    ]);
    expect(printed(parse(minimalWith({}, ...api, "report:", "  path: /v1/{workspace}/report")))).toEqual([
      "spec.yaml:20:9 report.path: may only use the placeholders {project} (the environment's key) and {projectId} (the listed project's id)",
    ]);
  });

  test("srm takes an alpha between 0 and 1 and a whole minimum of visitors", () => {
    expect(
      printed(
        parse(
          minimalWith({}, "report:", "  file: report.json", "  srm: { alpha: 2, minimumVisitors: 0, minVisitors: 3 }"),
        ),
      ),
    ).toEqual([
      "spec.yaml:18:17 report.srm.alpha: must be less than 1",
      "spec.yaml:18:37 report.srm.minimumVisitors: must be at least 1",
      'spec.yaml:18:40 report.srm: unknown key "minVisitors" — allowed keys: alpha, minimumVisitors',
    ]);
    expect(printed(parse(minimalWith({}, "report:", "  fiel: report.json")))).toEqual([
      'spec.yaml:17:3 report: unknown key "fiel" — did you mean "file"?',
    ]);
  });
});

test.describe("spec files", () => {
  test("a missing file is an error of that file", async () => {
    const missing = `${specsDir}absent.yaml`;
    expect(await loadSpec(missing, knownViewports())).toEqual({
      ok: false,
      file: missing,
      errors: [{ file: missing, line: 1, column: 1, path: "", message: "cannot read the spec: no such file" }],
    });
  });

  test("are loaded together, in the order given", async () => {
    const files = ["valid.yaml", "wrong-type.yaml", "syntax-error.yaml"].map((name) => `${specsDir}${name}`);
    const results = await loadSpecs(files, knownViewports());
    expect(results.map((result) => [result.file, result.ok])).toEqual([
      [files[0], true],
      [files[1], false],
      [files[2], false],
    ]);
  });
});

test.describe("formatSpecError", () => {
  test("prints file:line:col, then the path when there is one", () => {
    const error = { file: "audits/shop.yaml", line: 9, column: 3, path: "sdk", message: 'unknown key "glboal"' };
    expect(formatSpecError(error)).toBe('audits/shop.yaml:9:3 sdk: unknown key "glboal"');
    expect(formatSpecError({ ...error, path: "" })).toBe('audits/shop.yaml:9:3 unknown key "glboal"');
  });
});

test.describe("traffic", () => {
  const trafficOf = (...lines: string[]) => {
    const result = parse(minimalWith({}, "traffic:", ...lines));
    if (!result.ok) throw new Error(printed(result).join("\n"));
    return result.spec.traffic;
  };

  test("tags audit traffic by default and sends collect requests to the service", () => {
    const result = parse(minimalWith({}));
    expect(result.ok && result.spec.traffic).toEqual({
      header: { name: "X-Setup-Audit" },
      queryParam: false,
      collect: "send",
    });
  });

  test("takes a suffix, a header or false, a query parameter with its defaults, and the intercept mode", () => {
    expect(
      trafficOf('  userAgentSuffix: "qa-bot/2"', "  header: false", "  queryParam: {}", "  collect: intercept"),
    ).toEqual({
      userAgentSuffix: "qa-bot/2",
      header: false,
      queryParam: { name: "setup_audit" },
      collect: "intercept",
    });
    expect(trafficOf("  header: { name: X-QA, value: nightly }").header).toEqual({ name: "X-QA", value: "nightly" });
  });

  test("refuses what would break a request or is misspelled, saying what is allowed", () => {
    const lines = [
      "traffic:",
      "  header: { name: X QA }",
      "  queryParam: yes",
      "  collect: intercpt",
      "  userAgentSufix: qa",
    ];
    expect(printed(parse(minimalWith({}, ...lines)))).toEqual([
      "spec.yaml:17:19 traffic.header.name: must be an HTTP header name (letters, digits and - only, like X-Setup-Audit)",
      "spec.yaml:18:15 traffic.queryParam: must be false (none) or a mapping like { name: setup_audit }",
      'spec.yaml:19:12 traffic.collect: must be one of "send", "intercept", not text ("intercpt") — did you mean "intercept"?',
      'spec.yaml:20:3 traffic: unknown key "userAgentSufix" — did you mean "userAgentSuffix"?',
    ]);
    expect(printed(parse(minimalWith({}, "traffic:", '  header: { value: "a\\nb" }')))).toEqual([
      "spec.yaml:17:20 traffic.header.value: must be printable ASCII on one line (letters, digits, punctuation, spaces)",
    ]);
  });
});

test.describe("sdk presets and method paths", () => {
  const sdkLines = (...lines: string[]) => minimalWith({ 8: lines, 9: [], 10: [], 11: [], 12: [] });

  test("a preset fills every sdk field with the vendor's defaults", () => {
    const result = parse(sdkLines("  preset: mixpanel"));
    if (!result.ok) throw new Error(printed(result).join("\n"));
    const { vendor, scriptKey, botFilter, holdsWhileOffline, ...fields } = PRESETS.mixpanel;
    expect(result.spec.sdk).toEqual({
      preset: "mixpanel",
      ...fields,
      ready: "Boolean(mixpanel.__loaded)",
      settleMs: 250,
      pageViews: false,
      routeQuery: "keep",
    });
  });

  test("a field beside the preset overrides it, and the preset's ready refers to the configured global", () => {
    const result = parse(
      sdkLines("  preset: segment", '  script: "**/vendor/analytics.min.js"', "  global: seg", "  settleMs: 100"),
    );
    if (!result.ok) throw new Error(printed(result).join("\n"));
    expect(result.spec.sdk).toMatchObject({
      script: "**/vendor/analytics.min.js",
      global: "seg",
      collect: PRESETS.segment.collect,
      ready: "seg.initialized === true || seg.instance?.initialized === true",
      init: ["load"],
      settleMs: 100,
    });
  });

  test("track and identify take one method path or a list of dotted paths; init and ready are optional", () => {
    const result = parse(minimalWith({ 11: "  identify: [identify, people.set]" }));
    if (!result.ok) throw new Error(printed(result).join("\n"));
    expect(result.spec.sdk).toMatchObject({
      track: ["track"],
      identify: ["identify", "people.set"],
      init: [],
      traits: null,
      ready: null,
      preset: null,
      settleMs: 250,
      deliveryTimeoutMs: 6000,
    });
  });

  test("traits names where a builder argument keeps identify's attributes; amplitude's preset fills it", () => {
    const amplitude = parse(sdkLines("  preset: amplitude"));
    if (!amplitude.ok) throw new Error(printed(amplitude).join("\n"));
    expect(amplitude.spec.sdk).toMatchObject({
      global: "amplitude",
      traits: "_properties.$set",
      ready: 'typeof amplitude.runQueuedFunctions === "function"',
    });
    const spelled = parse(minimalWith({ 11: ["  identify: identify", "  traits: payload.attributes"] }));
    if (!spelled.ok) throw new Error(printed(spelled).join("\n"));
    expect(spelled.spec.sdk.traits).toBe("payload.attributes");
    expect(printed(parse(minimalWith({ 11: ["  identify: identify", '  traits: "_properties..$set"'] })))).toEqual([
      "spec.yaml:12:11 sdk.traits: must be a property name or a dotted path to one, like _properties.$set",
    ]);
  });

  test("properties names where a track's event object keeps its properties; amplitude's preset fills it", () => {
    const amplitude = parse(sdkLines("  preset: amplitude"));
    if (!amplitude.ok) throw new Error(printed(amplitude).join("\n"));
    expect(amplitude.spec.sdk.properties).toBe("event_properties");
    const segment = parse(sdkLines("  preset: segment"));
    if (!segment.ok) throw new Error(printed(segment).join("\n"));
    expect(segment.spec.sdk.properties).toBeNull();
    const spelled = parse(minimalWith({ 11: ["  identify: identify", "  properties: payload.props"] }));
    if (!spelled.ok) throw new Error(printed(spelled).join("\n"));
    expect(spelled.spec.sdk.properties).toBe("payload.props");
    const off = parse(sdkLines("  preset: amplitude", "  properties: null"));
    if (!off.ok) throw new Error(printed(off).join("\n"));
    expect(off.spec.sdk.properties).toBeNull();
    expect(printed(parse(minimalWith({ 11: ["  identify: identify", '  properties: "event properties"'] })))).toEqual([
      "spec.yaml:12:15 sdk.properties: must be a property name or a dotted path to one, like event_properties",
    ]);
    expect(printed(parse(minimalWith({ 11: ["  identify: identify", "  properties: [event_properties]"] })))).toEqual([
      "spec.yaml:12:15 sdk.properties: must be text, not a list",
    ]);
  });

  test("an unknown preset or a method path that is no path is named with what to write", () => {
    expect(printed(parse(sdkLines("  preset: heap")))).toEqual([
      'spec.yaml:8:11 sdk.preset: must be one of "segment", "mixpanel", "posthog", "rudderstack", "amplitude", not text ("heap")',
    ]);
    expect(printed(parse(minimalWith({ 10: '  track: "people..set"' })))).toEqual([
      "spec.yaml:10:10 sdk.track: must be a method name or a dotted path to one, like track or people.set",
    ]);
  });
});

test.describe("sdk.storage", () => {
  const sdkLines = (...lines: string[]) => minimalWith({ 8: lines, 9: [], 10: [], 11: [], 12: [] });

  test("every preset fills the storage names its vendor's SDK writes, and a spec's own list wins", () => {
    const expected = {
      segment: "ajs_*",
      mixpanel: "mp_*",
      posthog: "ph_*_posthog",
      rudderstack: "rl_*",
      amplitude: "AMP_*",
    };
    for (const [preset, glob] of Object.entries(expected)) {
      const result = parse(sdkLines(`  preset: ${preset}`));
      if (!result.ok) throw new Error(printed(result).join("\n"));
      expect(result.spec.sdk.storage).toContain(glob);
    }
    const own = parse(sdkLines("  preset: segment", '  storage: ["my_*"]'));
    if (!own.ok) throw new Error(printed(own).join("\n"));
    expect(own.spec.sdk.storage).toEqual(["my_*"]);
  });

  test("the SDKs' own consent records and probes match no preset's glob", () => {
    const names = [
      "__mp_opt_in_out_tok",
      "__ph_opt_in_out_tok",
      "__mplss_abc",
      "test_rudder_cookie",
      "__tld__",
      "cc_cookie",
      "klaro",
    ];
    for (const preset of Object.values(PRESETS)) {
      const patterns = preset.storage.map(
        (glob) => new RegExp(`^${glob.replaceAll(".", "\\.").replaceAll("*", ".*")}$`),
      );
      expect(names.filter((name) => patterns.some((pattern) => pattern.test(name)))).toEqual([]);
    }
  });

  test("without a preset the SDK writes nothing the audit knows of", () => {
    const result = parse(MINIMAL.join("\n"));
    if (!result.ok) throw new Error(printed(result).join("\n"));
    expect(result.spec.sdk.storage).toEqual([]);
  });
});

test.describe("the consent section", () => {
  test("absent, there is no consent step; present, accept is auto, no reject, no GPC and 5 s for the banner", () => {
    const absent = parse(MINIMAL.join("\n"));
    if (!absent.ok) throw new Error(printed(absent).join("\n"));
    expect(absent.spec.consent).toBeUndefined();
    const empty = parse(minimalWith({}, "consent: {}"));
    if (!empty.ok) throw new Error(printed(empty).join("\n"));
    expect(empty.spec.consent).toEqual({ accept: "auto", gpc: false, timeoutMs: 5000 });
  });

  test("a selector becomes its one click; steps stay steps; reject and gpc add their units", () => {
    const result = parse(
      minimalWith(
        {},
        "consent:",
        '  accept: "#cc-main .cm__btn[data-role=all]"',
        "  reject:",
        '    - click: "#manage"',
        '    - click: "#reject-all"',
        "  gpc: true",
        "  timeoutMs: 8000",
      ),
    );
    if (!result.ok) throw new Error(printed(result).join("\n"));
    expect(result.spec.consent).toEqual({
      accept: [{ click: "#cc-main .cm__btn[data-role=all]" }],
      reject: [{ click: "#manage" }, { click: "#reject-all" }],
      gpc: true,
      timeoutMs: 8000,
    });
    const auto = parse(minimalWith({}, "consent: { reject: auto }"));
    if (!auto.ok) throw new Error(printed(auto).join("\n"));
    expect(auto.spec.consent?.reject).toBe("auto");
  });

  test("steps that wait for events or leave the page, an unknown key and a timeout out of range are named", () => {
    expect(printed(parse(minimalWith({}, "consent:", "  accept:", "    - waitForEvent: signup_success")))).toEqual([
      "spec.yaml:17:3 consent.accept: acts on the banner (click, fill, waitFor), never waitForEvent, goto, back, forward or waitForUrl: the page's journey comes after consent",
    ]);
    const errors = printed(parse(minimalWith({}, "consent:", "  rejct: auto", "  timeoutMs: 0")));
    expect(errors).toHaveLength(2);
    expect(errors.join("\n")).toContain("consent.timeoutMs");
    expect(errors.join("\n")).toContain('unknown key "rejct" — did you mean "reject"?');
  });
});

test.describe("experiment variations", () => {
  /** The minimal spec with one experiment on its home page whose variations are `lines` (indented under `variations:`, from line 21). */
  const withVariations = (...lines: string[]) =>
    minimalWith(
      {},
      "experiments:",
      "  - name: Hero copy, short vs long",
      "    page: home",
      '    selector: "#hero"',
      "    variations:",
      ...lines,
    );

  test("take inline code, a file relative to the spec, and preview-link parameters", () => {
    const read: string[] = [];
    const result = parseSpec(
      withVariations(
        "      - name: Long copy",
        "        js: \"document.querySelector('#hero').textContent = 'Longer'\"",
        "        css: { file: variations/long.css }",
        "      - name: Preview link",
        "        query: { exp_preview: hero-long, slot: 2 }",
      ),
      "audits/spec.yaml",
      knownViewports(),
      (path) => (read.push(path), "#hero { font-size: 18px }"),
    );
    if (!result.ok) throw new Error(result.errors.map(formatSpecError).join("\n"));
    expect(read).toEqual(["variations/long.css"]);
    expect(result.spec.experiments[0]?.variations).toEqual([
      {
        name: "Long copy",
        js: { file: null, code: "document.querySelector('#hero').textContent = 'Longer'" },
        css: { file: "variations/long.css", code: "#hero { font-size: 18px }" },
      },
      { name: "Preview link", query: { exp_preview: "hero-long", slot: "2" } },
    ]);
  });

  test("an experiment without variations has none", () => {
    const result = parse(minimalWith({}, "experiments:", "  - { name: Hero copy, page: home, selector: '#hero' }"));
    expect(result.ok && result.spec.experiments[0]?.variations).toEqual([]);
  });

  test("a variation needs js, css or query, a name of its own, and parameters in its query", () => {
    expect(
      printed(
        parse(
          withVariations(
            "      - name: Nothing",
            "      - name: Control",
            "        css: 'a {}'",
            "      - name: Empty link",
            "        query: {}",
          ),
        ),
      ),
    ).toEqual([
      "spec.yaml:21:9 experiments[0].variations[0]: needs js, css or query: a variation with none of them is the control",
      'spec.yaml:22:15 experiments[0].variations[1].name: "control" is the page as it is: give the variation a name of its own',
      "spec.yaml:25:16 experiments[0].variations[2].query: has no parameters: name the preview link's parameters, or leave query out",
    ]);
  });

  test("names are unique within an experiment", () => {
    expect(
      printed(
        parse(withVariations("      - { name: Long copy, css: 'a {}' }", "      - { name: Long copy, js: 'void 0' }")),
      ),
    ).toEqual([
      'spec.yaml:22:17 experiments[0].variations[1].name: "Long copy" is the name of another variation of this experiment',
    ]);
  });

  test("a code file that cannot be read is an error at its line, relative to the spec's folder", async () => {
    const result = parseSpec(
      withVariations("      - name: Long copy", "        js: { file: missing.js }"),
      `${specsDir}spec.yaml`,
      knownViewports(),
    );
    expect(printed(result)).toEqual([
      `spec.yaml:22:21 experiments[0].variations[0].js.file: cannot read the variation's js file "missing.js": no such file (paths are relative to the spec's folder)`,
    ]);
    // A folder where the file should be is said so, naming the variation's file, not the spec.
    const folder = parseSpec(
      withVariations("      - name: Long copy", "        css: { file: . }"),
      `${specsDir}spec.yaml`,
      knownViewports(),
    );
    expect(printed(folder)).toEqual([
      `spec.yaml:22:22 experiments[0].variations[0].css.file: cannot read the variation's css file ".": it is a folder, not a file (paths are relative to the spec's folder)`,
    ]);
  });
});

test("sdk.pageViews without a way to tell page views (no sdk.page, sdk.pageEvent or preset) is refused at its place", () => {
  expect(printed(parse(minimalWith({ 12: [MINIMAL[11]!, "  pageViews: true"] })))).toEqual([
    "spec.yaml:13:14 sdk.pageViews: needs a way to tell page views: set sdk.page (the method that sends them) or sdk.pageEvent (the event that means one), or a preset",
  ]);
  expect(parse(minimalWith({ 12: [MINIMAL[11]!, "  pageViews: true", "  page: page"] })).ok).toBe(true);
});
