import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { stringify } from "yaml";
import { VENDOR_SPECS, vendorSpec, type SpecStyle } from "../../fixtures/vendors/audit-specs.js";
import {
  DEFAULTS_INSTALL,
  DEFAULTS_VENDORS,
  KEYS,
  LATE_INSTALL,
  NEAR_MISS_EVENT,
  SDKS,
  VENDORS,
  type FixtureVendor,
} from "../../fixtures/vendors/manifest.js";
import { FIXTURE_PORTS } from "../../fixtures/server.js";
import type { RunSummary } from "../../src/results/summary.js";
import type { Finding } from "../../src/findings/finding.js";
import { readSummary, runCli } from "./cli.js";

/**
 * The real Segment, Mixpanel, PostHog, RudderStack (v1.1 and v3) and Amplitude bundles, served
 * offline, in every install their fixtures have: correct pages pass with every call accepted
 * (PostHog's with its defaults too: its bot filter on),
 * every planted fault is reported with its check and status, with `preset:` specs and with specs
 * that spell every field out; hostile SDKs and an npm install without a global are judged from
 * the network and keep working.
 */
test.describe.configure({ mode: "serial" });

const origin = `http://127.0.0.1:${FIXTURE_PORTS.vendors}`;
const STYLES: readonly SpecStyle[] = ["preset", "fields"];
// Both viewports with the presets; the spelled-out specs differ only in the sdk section, so one
// viewport shows they find the same, and keeps the suite near ten minutes.
const VIEWPORTS: Record<SpecStyle, readonly string[]> = { preset: ["desktop", "mobile"], fields: ["desktop"] };
const specFile = (vendor: FixtureVendor, style: SpecStyle) => `${vendor}-${style}.yaml`;

let summary: RunSummary;

test.beforeAll(async ({}, testInfo) => {
  // 143 page × viewport audits of real bundles whose batch timers hold calls for up to 5 s.
  testInfo.setTimeout(900_000);
  const dir = join(testInfo.project.outputDir, "vendors-run", "specs");
  mkdirSync(dir, { recursive: true });
  const files = VENDOR_SPECS.map(([vendor, style]) => {
    const file = join(dir, specFile(vendor, style));
    writeFileSync(
      file,
      stringify(vendorSpec(vendor, style, origin, vendor === "hostile" ? VIEWPORTS.preset : VIEWPORTS[style])),
    );
    return file;
  });
  const out = join(testInfo.project.outputDir, "vendors-run", "out");
  // Twice as many browsers as cores: the pages mostly wait on the SDKs' batch timers, and the
  // verdicts must not depend on how busy the machine is.
  const run = await runCli(["run", ...files, "--out", out, "--workers", "4"]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  summary = readSummary(out);
});

function findingsOf(vendor: FixtureVendor, style: SpecStyle, page: string): Finding[] {
  return summary.findings.filter((finding) => finding.spec.endsWith(specFile(vendor, style)) && finding.page === page);
}

function one(vendor: FixtureVendor, style: SpecStyle, page: string, check: string, viewport: string): Finding {
  const found = findingsOf(vendor, style, page).filter(
    (finding) => finding.check === check && finding.viewport === viewport,
  );
  expect(found, `${check} on ${vendor}/${style}/${page}/${viewport}`).toHaveLength(1);
  return found[0]!;
}

for (const vendor of VENDORS) {
  for (const style of STYLES) {
    test.describe(`${vendor}, ${style === "preset" ? "preset spec" : "every field spelled out"}`, () => {
      const viewports = VIEWPORTS[style];
      const installs = SDKS[vendor].installs;
      test("correct pages, every install (the snippet inserted once the page is idle after load too, and with the vendor's defaults where it has that page) and both viewports: no check fails, the track and the identify are accepted", () => {
        for (const install of [
          ...installs,
          LATE_INSTALL,
          ...(DEFAULTS_VENDORS.includes(vendor) ? [DEFAULTS_INSTALL] : []),
        ]) {
          const page = `${install}-correct`;
          const findings = findingsOf(vendor, style, page);
          expect(findings.length).toBeGreaterThan(0);
          expect(
            findings
              .filter((finding) => finding.status === "fail")
              .map((finding) => `${page} ${finding.viewport} ${finding.check}: ${finding.message}`),
          ).toEqual([]);
          for (const viewport of viewports) {
            expect(one(vendor, style, page, "sdk.key", viewport).status).toBe("pass");
            expect(one(vendor, style, page, "events.expected", viewport).status).toBe("pass");
            const calls = summary.calls.filter(
              (call) => call.spec.endsWith(specFile(vendor, style)) && call.page === page && call.viewport === viewport,
            );
            expect(calls.filter((call) => call.kind === "track").map((call) => [call.name, call.delivery])).toEqual([
              ["signup_success", "accepted"],
            ]);
            expect(calls.filter((call) => call.kind === "identify").map((call) => call.delivery)).toEqual(
              calls.filter((call) => call.kind === "identify").map(() => "accepted"),
            );
            expect(calls.some((call) => call.kind === "identify")).toBe(true);
          }
        }
      });

      test("faulty pages: the lost call fails sdk.order, the near miss is named, personal data and the nested address fail", () => {
        for (const install of installs) {
          const page = `${install}-faulty`;
          for (const viewport of viewports) {
            expect(one(vendor, style, page, "sdk.order", viewport).status).toBe("fail");
            const expected = one(vendor, style, page, "events.expected", viewport);
            expect(expected.status).toBe("fail");
            expect(expected.message).toContain(`did you mean \`${NEAR_MISS_EVENT}\``);
            const pii = one(vendor, style, page, "identify.pii", viewport);
            expect(pii.status).toBe("fail");
            expect(pii.message).toMatch(/email address.*phone number/);
            expect(one(vendor, style, page, "identify.attributes", viewport).message).toContain(
              "`address` is a nested object",
            );
          }
        }
      });

      test("wrong-key pages fail sdk.key naming where the production key was seen", () => {
        for (const install of installs) {
          for (const viewport of viewports) {
            const key = one(vendor, style, `${install}-wrong-key`, "sdk.key", viewport);
            expect(key.status).toBe("fail");
            expect(key.message).toContain(`\`${KEYS[vendor].production}\` (environment "production"'s key) is in `);
          }
        }
      });
    });
  }
}

test("hostile SDKs (a frozen API, a locked global) keep working, their calls are judged from the network and accepted", () => {
  for (const variant of ["frozen", "locked"]) {
    for (const viewport of VIEWPORTS.preset) {
      const order = one("hostile", "fields", variant, "sdk.order", viewport);
      expect(order.status).toBe("warn");
      expect(order.message).toContain("judged from what the collect requests carried");
      expect(one("hostile", "fields", variant, "events.expected", viewport).status).toBe("pass");
      expect(one("hostile", "fields", variant, "page.errors", viewport).status).toBe("pass");
      const calls = summary.calls.filter(
        (call) =>
          call.spec.endsWith(specFile("hostile", "fields")) && call.page === variant && call.viewport === viewport,
      );
      expect(calls.map((call) => [call.kind, call.delivery])).toEqual([
        ["identify", "accepted"],
        ["track", "accepted"],
      ]);
    }
  }
});

test("no correct page is blamed for the browser's favicon request; RudderStack v1.1's own deprecation notice is the only page error", () => {
  const correct = summary.findings.filter(
    (finding) => finding.check === "page.errors" && /correct$/.test(finding.page ?? ""),
  );
  expect(correct.length).toBeGreaterThan(0);
  for (const finding of correct) {
    if (/\/rudderstack-(preset|fields)\.yaml$/.test(finding.spec))
      expect(finding.message).toMatch(
        /^1 error\(s\), first: console "This RudderStack JavaScript SDK package is deprecated/,
      );
    else expect(finding.status, `${finding.spec} ${finding.page} ${finding.viewport}: ${finding.message}`).toBe("pass");
  }
});

test("Segment's npm install without a global is judged from its collect requests, and says so", () => {
  for (const viewport of VIEWPORTS.preset) {
    const present = one("segment", "preset", "npm-module-correct", "sdk.present", viewport);
    expect(present.status).toBe("warn");
    expect(present.message).toContain("never defined `window.analytics`");
    expect(one("segment", "preset", "npm-module-correct", "sdk.order", viewport).status).toBe("warn");
    expect(one("segment", "preset", "npm-wrapper-correct", "sdk.present", viewport).status).toBe("pass");
    expect(one("segment", "preset", "npm-wrapper-correct", "sdk.order", viewport).status).toBe("pass");
  }
});

test("Amplitude's identify, an Identify builder, is judged by the attributes it keeps in _properties.$set and matched to its request", () => {
  for (const style of STYLES) {
    for (const viewport of VIEWPORTS[style]) {
      const attributes = one("amplitude", style, "snippet-correct", "identify.attributes", viewport);
      expect(attributes.status).toBe("pass");
      expect(attributes.message).toContain("`plan`, `account_type`");
      const calls = summary.calls.filter(
        (call) =>
          call.spec.endsWith(specFile("amplitude", style)) &&
          call.page === "snippet-correct" &&
          call.viewport === viewport,
      );
      expect(calls.filter((call) => call.kind !== "page").map((call) => [call.kind, call.delivery])).toEqual([
        ["identify", "accepted"],
        ["track", "accepted"],
      ]);
      // The SDK's own "[Amplitude] Page Viewed" is a page view where the spec names it (the preset's sdk.pageEvent).
      expect(calls.filter((call) => call.kind === "page").map((call) => [call.name, call.delivery])).toEqual(
        style === "preset" ? [["[Amplitude] Page Viewed", "accepted"]] : [],
      );
    }
  }
});
