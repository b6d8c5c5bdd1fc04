import { expect, test } from "@playwright/test";
import { expectedGolden, judgedGolden } from "./support/golden.js";

/**
 * The golden run (test/support/golden.ts): the broken shop's committed artifacts, judged by the
 * current spec and checks, give the committed summary.json, every finding's status, message and
 * evidence and every call's delivery. A change of verdict fails here without a browser: when it
 * is meant, `npm run golden -- --judge` rewrites the expected summary, to commit with the change.
 */
test("the broken shop's saved artifacts give the committed summary.json (else `npm run golden -- --judge`, when the change is meant)", async () => {
  const judged = await judgedGolden();
  const expected = expectedGolden();
  expect(judged.findings.length).toBe(expected.findings.length);
  for (const [index, finding] of judged.findings.entries()) {
    const where = [
      finding.check,
      finding.page ?? finding.goal ?? finding.experiment ?? "",
      finding.viewport ?? "",
      finding.variation ?? "",
    ].join(" ");
    expect(finding, `finding ${index + 1}: ${where}`).toEqual(expected.findings[index]);
  }
  expect(judged.calls).toEqual(expected.calls);
  expect(judged).toEqual(expected);
});
