import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPORT_PATHS } from "../../src/report/html.js";

/** Writes a fresh allure-results folder, as a run does: the same tests, new result ids. */
export function writeRun(outDir: string, status: "passed" | "failed"): void {
  const resultsDir = join(outDir, REPORT_PATHS.results);
  rmSync(resultsDir, { recursive: true, force: true });
  mkdirSync(resultsDir, { recursive: true });
  for (const page of ["home", "signup"]) {
    const uuid = randomUUID();
    const result = {
      uuid,
      historyId: `demo-${page}`,
      testCaseId: `demo-${page}`,
      name: `${page} · desktop`,
      fullName: `demo › ${page}`,
      status,
      stage: "finished",
      start: 1_000,
      stop: 1_100,
      steps: [],
      attachments: [],
      parameters: [],
      labels: [
        { name: "epic", value: "Acme Marketing" },
        { name: "feature", value: "Demo shop" },
        { name: "story", value: page },
      ],
    };
    writeFileSync(join(resultsDir, `${uuid}-result.json`), JSON.stringify(result));
  }
}
