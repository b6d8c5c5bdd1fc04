import { expect, test } from "@playwright/test";
import type { Check } from "../../src/checks/check.js";
import { runChecks } from "../../src/checks/index.js";
import { sdkOrder } from "../../src/checks/sdk.js";
import { callWith, contextOf, pageWith, specWith } from "../support/artifacts.js";

const lostCall = pageWith({ calls: [callWith({ state: "lost" })] });

test("a spec can turn a check off: its findings stay, skipped, saying why", () => {
  const [finding] = runChecks(contextOf([lostCall], specWith({ checks: { "sdk.order": "off" } })), [sdkOrder]);
  expect(finding?.status).toBe("skip");
  expect(finding?.message).toMatch(/^Turned off by the spec's checks section \(would have been fail:/);
});

test("a spec can lower a failing check to a warning, and leaves passes alone", () => {
  const spec = specWith({ checks: { "sdk.order": "warn" } });
  const findings = runChecks(contextOf([lostCall, pageWith({ viewport: "mobile" })], spec), [sdkOrder]);
  expect(findings.map((finding) => finding.status)).toEqual(["warn", "pass"]);
});

test("a check that throws becomes one failed finding", () => {
  const broken: Check = { ...sdkOrder, evaluate: () => { throw new Error("boom"); } };
  const findings = runChecks(contextOf([pageWith()]), [broken]);
  expect(findings).toHaveLength(1);
  expect(findings[0]).toMatchObject({ check: "sdk.order", status: "fail" });
  expect(findings[0]?.message).toContain("boom");
});
