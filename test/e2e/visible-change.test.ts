import { join } from "node:path";
import { expect, test } from "@playwright/test";
import type { RunSummary } from "../../src/results/summary.js";
import { allowRunOf, e2eSpec, findingOf, readSummary, runCli } from "./cli.js";
import { problemsOf } from "../../src/findings/finding.js";

/** Visible change judged on pixels: a letter-spacing-only variation of a fixed-width button changes what people see; the same text rewritten, another cursor, or the same button moved, does not. */
test.describe.configure({ mode: "serial" });

let summary: RunSummary;

test.beforeAll(async ({}, testInfo) => {
  allowRunOf(testInfo, [e2eSpec("visible-change.yaml")]);
  const out = join(testInfo.project.outputDir, "visible-change-run");
  const run = await runCli(["run", e2eSpec("visible-change.yaml"), "--out", out]);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  summary = readSummary(out);
});

for (const viewport of ["desktop", "mobile"]) {
  test(`on ${viewport}, a letter-spacing-only variation passes, moved or not, and one that changes nothing visible, or only moves the button, fails`, () => {
    const variation = (name: string) =>
      findingOf(summary, "experiment.variation", { page: "plans", viewport, variation: name });
    expect(variation("Letter spacing only")).toMatchObject({ status: "pass", experiment: "Plan button spacing" });
    expect(variation("Letter spacing only").evidence).toMatchObject({
      shownBy: ["pixels"],
      styleDiff: expect.arrayContaining(["letter-spacing"]),
    });
    for (const name of ["Same text rewritten", "Cursor only"]) {
      expect(variation(name).status, name).toBe("fail");
      expect(variation(name).message, name).toContain(
        "it changes nothing visible in the target: its text, box and pixels are the control's",
      );
    }
    expect(variation("Moved and spaced")).toMatchObject({
      status: "pass",
      evidence: { shownBy: ["pixels"], moved: { dx: 0, dy: 40 } },
    });
    expect(variation("Moved only")).toMatchObject({
      status: "fail",
      evidence: { shownBy: [], moved: { dx: 0, dy: 40 }, styleDiff: expect.arrayContaining(["position", "top"]) },
    });
    expect(variation("Moved only").message).toContain(
      "it changes nothing visible in the target, it only moves it 40 px down: its text, size and pixels are the control's. Change what the target shows (its text, its style), not only where it is.",
    );
    const failed = problemsOf(summary.findings);
    expect(failed.map((finding) => `${finding.check} ${finding.viewport} ${finding.variation}`).sort()).toEqual(
      ["desktop", "mobile"]
        .flatMap((each) =>
          ["Cursor only", "Same text rewritten", "Moved only"].map((name) => `experiment.variation ${each} ${name}`),
        )
        .sort(),
    );
  });
}
