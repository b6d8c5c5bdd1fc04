import { expect, test } from "@playwright/test";
import { buildTarget } from "../../src/cli/targets.js";
import { environmentDomain, isOnDomain, leavesDomain } from "../../src/url/domain.js";
import { knownViewports } from "../../src/browser/viewports.js";
import { formatSpecError, parseSpec } from "../../src/audit-spec/load.js";
import { specWith } from "../support/artifacts.js";

test.describe("the domain rule", () => {
  test("the domain defaults to the base URL's host, and a written one is normalised", () => {
    expect(environmentDomain({ baseUrl: "http://127.0.0.1:47412/shop" })).toBe("127.0.0.1");
    expect(environmentDomain({ baseUrl: "https://shop.example.test", domain: "*.Example.test." })).toBe("example.test");
    expect(environmentDomain({ baseUrl: "https://shop.example.test", domain: ".example.test" })).toBe("example.test");
  });

  test("a URL is on the domain when its host is the domain or a subdomain, whatever the port", () => {
    expect(isOnDomain("https://example.test/", "example.test")).toBe(true);
    expect(isOnDomain("https://www.shop.example.test:8443/a?b", "example.test")).toBe(true);
    expect(isOnDomain("https://evil-example.test/", "example.test")).toBe(false);
    expect(isOnDomain("https://example.test.evil.test/", "example.test")).toBe(false);
    expect(isOnDomain("http://localhost:47412/", "127.0.0.1")).toBe(false);
    expect(isOnDomain("not a url", "example.test")).toBe(false);
  });

  test("browser-internal documents leave no domain", () => {
    expect(leavesDomain("about:blank", "example.test")).toBe(false);
    expect(leavesDomain("chrome-error://chromewebdata/", "example.test")).toBe(false);
    expect(leavesDomain("https://tracker.test/", "example.test")).toBe(true);
  });
});

const SPEC_HEAD = [
  "workspace: A",
  "project: B",
  "environments:",
  "  staging:",
  "    key: prj_a",
  '    baseUrl: "https://evil.test"',
  "    domain: shop.example.test",
];
const SPEC_TAIL = [
  'sdk: { script: "**/sdk.js", global: g, track: t, identify: i, collect: "**/c" }',
  "pages:",
  "  - id: home",
  '    path: "/\\\\evil.test/"',
  "    steps:",
  '      - goto: "/\\t/evil.test/"',
];

test.describe("a spec that leaves its domain is refused up front", () => {
  test("a base URL off the environment's domain, and paths that lead to another host", () => {
    const result = parseSpec([...SPEC_HEAD, ...SPEC_TAIL, ""].join("\n"), "spec.yaml", knownViewports());
    if (result.ok) throw new Error("expected the spec to be refused");
    expect(result.errors.map(formatSpecError)).toEqual([
      'spec.yaml:6:14 environments.staging.baseUrl: is not on the environment\'s domain "shop.example.test" or a subdomain of it: every audited URL must stay on the domain',
      "spec.yaml:11:11 pages[0].path: must be a path on the site, not a way to another host",
      "spec.yaml:13:15 pages[0].steps[0].goto: must be a path on the site, not a way to another host",
    ]);
  });

  test("--base-url must stay on the environment's domain too", () => {
    const filters = { env: undefined, viewports: [], pages: [] };
    const loaded = { file: "audits/demo.yaml", spec: specWith(), sha256: "0".repeat(64) };
    expect(buildTarget(loaded, { ...filters, baseUrl: "http://127.0.0.1:9" }).baseUrl).toBe("http://127.0.0.1:9");
    expect(() => buildTarget(loaded, { ...filters, baseUrl: "http://localhost:47412" })).toThrow(
      '--base-url http://localhost:47412 leaves environment "staging"\'s domain 127.0.0.1 (of audits/demo.yaml)',
    );
  });
});
