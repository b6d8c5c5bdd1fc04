import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FINDINGS_HISTORY, recordedChecklists } from "../../results/changes.js";
import type { RunSummary } from "../../results/summary.js";
import { FILMSTRIP_PREFIX, SIDE_BY_SIDE_NAME } from "../allure-results.js";
import type { OverviewSources } from "./overview.js";
import type { ExperimentPictures } from "./pictures.js";

/** An attachment of an Allure result. */
interface Attachment {
  name: string;
  source: string;
  type: string;
}

/** What an Allure result file says that the pictures need: the runtime files each attachment as a step of its own. */
interface PictureResult {
  name: string;
  labels: { name: string; value: string }[];
  parameters: { name: string; value: string }[];
  steps?: { attachments?: Attachment[] }[];
}

/**
 * The overview's sources in an output folder: summary.json, the history of findings, and the
 * experiments' pictures among the Allure results. Null without a summary.json (results an older
 * version wrote): the report then opens on Allure as it did.
 */
export function readOverviewSources(outDir: string, resultsDir: string): OverviewSources | null {
  const summaryFile = join(outDir, "summary.json");
  if (!existsSync(summaryFile)) return null;
  const historyFile = join(outDir, FINDINGS_HISTORY);
  const summary = JSON.parse(readFileSync(summaryFile, "utf8")) as RunSummary;
  return {
    // A summary.json written before runs compared themselves has no `changes`: nothing was compared.
    summary: { ...summary, changes: summary.changes ?? null },
    history: existsSync(historyFile) ? recordedChecklists(readFileSync(historyFile, "utf8").split("\n")) : [],
    pictures: picturesIn(resultsDir),
  };
}

/** The experiments' pictures the results attach, ordered by spec × environment and title. */
function picturesIn(resultsDir: string): ExperimentPictures[] {
  const isPicture = (attachment: Attachment) =>
    attachment.type === "image/png" &&
    (attachment.name === SIDE_BY_SIDE_NAME || attachment.name.startsWith(FILMSTRIP_PREFIX));
  const pictures = readdirSync(resultsDir)
    .filter((name) => name.endsWith("-result.json"))
    .map((name) => readFileSync(join(resultsDir, name), "utf8"))
    // Most results have no picture: only those that name one are parsed.
    .filter((text) => text.includes(SIDE_BY_SIDE_NAME) || text.includes(FILMSTRIP_PREFIX))
    .map((text) => JSON.parse(text) as PictureResult)
    .flatMap((result) => {
      const images = (result.steps ?? [])
        .flatMap((step) => step.attachments ?? [])
        .filter(isPicture)
        .filter((attachment) => existsSync(join(resultsDir, attachment.source)));
      if (images.length === 0) return [];
      const project = result.labels.find((label) => label.name === "feature")?.value ?? "";
      const environment = result.parameters.find((parameter) => parameter.name === "environment")?.value ?? "";
      return [
        {
          title: result.name,
          target: `${project} (${environment})`,
          images: images.map((image) => ({ caption: image.name, png: readFileSync(join(resultsDir, image.source)) })),
        },
      ];
    });
  return pictures.sort((a, b) => a.target.localeCompare(b.target) || a.title.localeCompare(b.title));
}
