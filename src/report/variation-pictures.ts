import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PageArtifacts } from "../artifacts/types.js";
import { isPageAsItIs } from "../artifacts/unit-kind.js";
import type { PreviewedExperiment, ReportTarget, TargetResult } from "../results/run-result.js";
import {
  filmstripPage,
  sideBySidePage,
  type FilmstripPictureFrame,
  type RenderPicture,
  type SideBySideColumn,
} from "./side-by-side.js";

/**
 * The picture of each experiment on each viewport: the page as it is beside each variation's
 * preview, from the first screens the gatherer kept when it saw the target before the journey.
 */

/** Each previewed experiment's pictures, by viewport. */
export type VariationPictures = ReadonlyMap<PreviewedExperiment, ReadonlyMap<string, ViewportPictures>>;

/** An experiment's pictures on one viewport, as PNG bytes. */
export interface ViewportPictures {
  /** The control and its variations side by side; null when the control's first screen was not kept. */
  sideBySide: Buffer | null;
  /** Each variation's filmstrip (experiment.flicker), by the variation's name. */
  filmstrips: ReadonlyMap<string, Buffer>;
}

/** What the pictures are made of: each target's experiments, pages and findings, and the output folder that keeps the first screens. */
export interface PictureSources {
  outDir: string;
  targets: ReadonlyArray<{
    target: Pick<ReportTarget, "previewed" | "viewports">;
    result: Pick<TargetResult, "pages" | "findings">;
  }>;
}

/**
 * A picture for every experiment on every viewport its variations were judged on, rendered one
 * after the other with `render`. None where the control's first screen was not kept (screenshots
 * off, or the page did not load).
 */
export async function variationPictures(run: PictureSources, render: RenderPicture): Promise<VariationPictures> {
  const pictures = new Map<PreviewedExperiment, Map<string, ViewportPictures>>();
  for (const { target, result } of run.targets) {
    for (const experiment of target.previewed) {
      const byViewport = new Map<string, ViewportPictures>();
      for (const viewport of target.viewports) {
        const columns = judgedColumns(result, run.outDir, experiment, viewport);
        const sideBySide = columns === null ? null : await render(sideBySidePage(columns));
        const filmstrips = new Map<string, Buffer>();
        for (const unit of result.pages) {
          if (
            unit.page !== experiment.page ||
            unit.viewport !== viewport ||
            unit.variation?.experiment !== experiment.name
          )
            continue;
          const frames = filmstripFramesOf(unit, run.outDir);
          if (frames.length > 0) filmstrips.set(unit.variation.name, await render(filmstripPage(frames)));
        }
        if (sideBySide !== null || filmstrips.size > 0) byViewport.set(viewport, { sideBySide, filmstrips });
      }
      pictures.set(experiment, byViewport);
    }
  }
  return pictures;
}

/** The control's column and each variation's on `viewport`; null when no variation was judged there or the control's first screen was not kept. */
function judgedColumns(
  result: Pick<TargetResult, "pages" | "findings">,
  outDir: string,
  experiment: PreviewedExperiment,
  viewport: string,
): SideBySideColumn[] | null {
  const judged = result.findings.filter(
    (finding) =>
      finding.check === "experiment.variation" &&
      finding.experiment === experiment.name &&
      finding.viewport === viewport,
  );
  if (judged.length === 0) return null;
  const onViewport = result.pages.filter((page) => page.page === experiment.page && page.viewport === viewport);
  // The control forced by the experiment's `control.query`, when there is one, else the page as it is.
  const control =
    onViewport.find((page) => page.variation?.experiment === experiment.name && page.variation.control === true) ??
    onViewport.find(isPageAsItIs);
  const controlColumn = control ? columnOf(control, experiment.name, outDir, "control", null) : null;
  if (controlColumn === null) return null;
  const variations = onViewport.flatMap((unit) => {
    if (unit.variation?.experiment !== experiment.name || unit.variation.control === true) return [];
    const name = unit.variation.name;
    const finding = judged.find((candidate) => candidate.variation === name);
    const status = finding === undefined || finding.status === "skip" ? null : finding.status;
    const column = columnOf(unit, experiment.name, outDir, name, status);
    return column === null ? [] : [column];
  });
  return [controlColumn, ...variations];
}

/** A variation's filmstrip frames that were kept, each labelled with its time and whether the page was hidden then. */
function filmstripFramesOf(unit: PageArtifacts, outDir: string): FilmstripPictureFrame[] {
  const flicker = unit.flicker;
  if (!flicker) return [];
  return flicker.filmstrip.flatMap((frame) => {
    const file = join(outDir, frame.screen);
    if (!existsSync(file)) return [];
    const sampled = flicker.frames.filter((row) => row[0] <= frame.atMs).at(-1);
    return [
      {
        label: `${frame.atMs} ms${sampled?.[1] === 1 ? " · hidden" : ""}`,
        screen: readFileSync(file),
        crop: frame.crop,
      },
    ];
  });
}

function columnOf(
  page: PageArtifacts,
  experiment: string,
  outDir: string,
  label: string,
  status: SideBySideColumn["status"],
): SideBySideColumn | null {
  const view = page.experimentViews.find((candidate) => candidate.experiment === experiment);
  if (!view?.screen || !existsSync(join(outDir, view.screen))) return null;
  // The first screen is saved in CSS pixels, as the target's box is measured.
  return { label, status, screen: readFileSync(join(outDir, view.screen)), target: view.target?.box ?? null };
}
