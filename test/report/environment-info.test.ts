import { expect, test } from "@playwright/test";
import { planTarget } from "../../src/schedule/target.js";
import { environmentInfo } from "../../src/report/environment-info.js";
import { reportTarget, type ReportTarget } from "../../src/results/run-result.js";
import { pageWith, specWith } from "../support/artifacts.js";

const target = (slug: string, specSha256: string): ReportTarget =>
  reportTarget(
    planTarget({
      specFile: `audits/${slug}.yaml`,
      slug,
      spec: specWith(),
      specSha256,
      environment: "staging",
      baseUrl: "http://127.0.0.1:47412",
      pages: ["home"],
      viewports: ["desktop", "mobile"],
    }),
  );

test("the environment info names the tool, the browser that opened the pages and the spec's digest as it was read for the run", () => {
  expect(
    environmentInfo([target("demo", "a".repeat(64))], [pageWith(), pageWith({ viewport: "mobile" })], "0.1.0"),
  ).toEqual({
    "setup-audit": "0.1.0",
    Browser: "Chromium 156.0.7339.80",
    "Spec file": "audits/demo.yaml",
    "Spec sha256": "a".repeat(64),
    Environment: "staging",
    "Base URL": "http://127.0.0.1:47412",
    Viewports: "desktop, mobile",
  });
});

test("several specs are told apart by their slug; shards' browsers are all named in version order; a crashed page names none", () => {
  const pages = [pageWith({ browser: "Chromium 1000.0.1.2" }), pageWith(), pageWith({ browser: null })];
  const info = environmentInfo([target("shop", "b".repeat(64)), target("blog", "c".repeat(64))], pages, "0.1.0");
  expect(info.Browser).toBe("Chromium 156.0.7339.80, Chromium 1000.0.1.2");
  expect(info["shop: Spec sha256"]).toBe("b".repeat(64));
  expect(info["blog: Spec sha256"]).toBe("c".repeat(64));
  expect(environmentInfo([target("shop", "b".repeat(64))], [pageWith({ browser: null })], "0.1.0").Browser).toBe(
    "unknown (no page's audit reported)",
  );
});
