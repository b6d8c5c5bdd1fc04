import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PageArtifacts } from "../artifacts/types.js";
import type { PreviewedExperiment, TargetResult } from "../results/run-result.js";
import { composeSideBySide, type SideBySideColumn } from "./side-by-side.js";

/**
 * The picture of one experiment on one viewport: the page as it is beside each variation's
 * preview, from the first screens the gatherer kept when it saw the target before the journey.
 */

/** The experiment's picture on `viewport` as PNG bytes; null when the control's first screen was not kept (screenshots off, or the page did not load). */
export function variationPicture(result: Pick<TargetResult, "pages" | "findings">, outDir: string, experiment: PreviewedExperiment, viewport: string): Buffer | null {
  const onViewport = result.pages.filter((page) => page.page === experiment.page && page.viewport === viewport);
  const control = onViewport.find((page) => page.variation === null);
  const controlColumn = control ? columnOf(control, experiment.name, outDir, "control", null) : null;
  if (controlColumn === null) return null;
  const variations = onViewport.flatMap((unit) => {
    if (unit.variation?.experiment !== experiment.name) return [];
    const name = unit.variation.name;
    const judged = result.findings.find((finding) => finding.check === "experiment.variation" && finding.experiment === experiment.name && finding.variation === name && finding.viewport === viewport);
    const status = judged === undefined || judged.status === "skip" ? null : judged.status;
    const column = columnOf(unit, experiment.name, outDir, name, status);
    return column === null ? [] : [column];
  });
  return composeSideBySide([controlColumn, ...variations]);
}

function columnOf(page: PageArtifacts, experiment: string, outDir: string, label: string, status: SideBySideColumn["status"]): SideBySideColumn | null {
  const view = page.experimentViews.find((candidate) => candidate.experiment === experiment);
  if (!view?.screen || !existsSync(join(outDir, view.screen))) return null;
  // The first screen is saved in CSS pixels, as the target's box is measured.
  return { label, status, screen: readFileSync(join(outDir, view.screen)), target: view.target?.box ?? null };
}
