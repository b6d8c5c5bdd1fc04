import { cpSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { PageArtifacts } from "../artifacts/types.js";
import type { AuditTarget } from "../schedule/plan.js";
import type { TargetResult } from "../results/run-result.js";
import { isProblem } from "../findings/finding.js";

/**
 * With `screenshots: on-failure` the gatherer saved every screenshot in the work folder (a replay:
 * in the saved artifacts); only those of a page × viewport with a failed or warning finding are
 * kept, in the output.
 */
export function keepFailureScreenshots(
  targets: readonly AuditTarget[],
  results: readonly TargetResult[],
  fromDir: string,
  outDir: string,
): void {
  targets.forEach((target, index) => {
    if (target.spec.screenshots !== "on-failure") return;
    const result = results[index]!;
    for (const page of result.pages) {
      if (page.screenshot === null) continue;
      const failed = result.findings.some(
        (finding) => finding.page === page.page && finding.viewport === page.viewport && isProblem(finding.status),
      );
      if (failed) copyScreen(fromDir, page.screenshot, outDir);
      else page.screenshot = null;
    }
  });
}

/**
 * The files of the screens a page's artifacts name, relative to the output folder: its screenshot
 * (unless left out), the experiments' first screens and a filmstrip's frames.
 */
export function screensOf(page: PageArtifacts, { screenshot }: { screenshot: boolean }): string[] {
  return [
    ...(screenshot && page.screenshot !== null ? [page.screenshot] : []),
    ...page.experimentViews.flatMap((view) => (view.screen === null ? [] : [view.screen])),
    ...(page.flicker?.filmstrip ?? []).map((frame) => frame.screen),
  ];
}

/**
 * A replay's screens: the ones a run writes straight into the output (the experiments' first
 * screens, the filmstrips, and with `screenshots: on` every page's screenshot) copied from the
 * saved artifacts, then the failures' screenshots of `on-failure`. A screen the artifacts lack
 * (left out to keep them small) is left out of the report.
 */
export function restoreScreens(
  targets: readonly AuditTarget[],
  results: readonly TargetResult[],
  fromDir: string,
  outDir: string,
): void {
  targets.forEach((target, index) => {
    for (const page of results[index]!.pages) {
      for (const screen of screensOf(page, { screenshot: target.spec.screenshots === "on" }))
        copyScreen(fromDir, screen, outDir);
    }
  });
  keepFailureScreenshots(targets, results, fromDir, outDir);
}

/** Copies a screen, named relative to both folders, when `fromDir` has it. */
export function copyScreen(fromDir: string, screen: string, outDir: string): void {
  if (!existsSync(join(fromDir, screen))) return;
  mkdirSync(dirname(join(outDir, screen)), { recursive: true });
  cpSync(join(fromDir, screen), join(outDir, screen));
}
