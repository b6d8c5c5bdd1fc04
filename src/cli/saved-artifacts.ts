import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ApiArtifacts, CapturedCall, PageArtifacts } from "../artifacts/types.js";
import { personalDataOf } from "../checks/identify/pii.js";
import { type AuditTarget, type AuditUnit, type RecordedTarget, recordedTarget } from "../schedule/plan.js";
import { hideSecretsDeep, shareableUrl } from "../privacy/redact.js";
import type { LoadedSpec } from "../audit-spec/load.js";
import { toolVersion } from "../package/version.js";
import { usageError } from "../runner/errors.js";
import { copyScreen, screensOf } from "./screens.js";
import { buildTarget, type TargetFilters } from "./targets.js";

/**
 * `run --save-artifacts` keeps what the checks judged in OUT/artifacts/, and `run --from-artifacts
 * DIR` judges it again with the current spec and checks, without a browser (as Lighthouse's `-A`
 * does): `run.json` holds each spec × environment's plan, the command line's selection and the
 * API's answers, `pages/` one file per page × viewport (a variation's preview among them), and
 * the screens the report shows (the pages' screenshots, the experiments' first screens, the filmstrips) under
 * their paths in the output folder. The audit's own secrets (the API key, a closed site's values)
 * are redacted; the keys and canary values the gatherer found are there as its sightings, and an
 * identify call that a secret was redacted from keeps the personal data found in it before, so
 * that `sdk.key` and `identify.pii` judge them as the run did. No login's storage state is kept.
 */

/** The folder, in the output folder, that holds the saved artifacts. */
export const SAVED_DIR = "artifacts";
const RUN_FILE = "run.json";
const PAGES_DIR = "pages";

/** The format of run.json and the page files: raised whenever they change. */
export const SAVED_VERSION = 1;

/** One spec × environment as it was gathered. */
export interface SavedTarget extends RecordedTarget {
  /** The command line's `--page` and `--viewport` (empty: the spec's own). */
  selection: Pick<TargetFilters, "pages" | "viewports">;
  /** The service's answers, recent events included; null without an `api` section. */
  api: ApiArtifacts | null;
}

/** What run.json holds. */
export interface SavedRun {
  version: typeof SAVED_VERSION;
  /** The setup-audit version that gathered it. */
  tool: string;
  /** When the run that gathered it started (ISO-8601). */
  startedAt: string;
  targets: SavedTarget[];
}

/** A page × viewport's artifacts as a run read them, with the plan's file for them. */
export interface GatheredPage {
  file: string;
  page: PageArtifacts;
}

/** One spec × environment as a run gathered it: its plan, its pages and the API's answers. */
export interface GatheredTarget {
  target: AuditTarget;
  pages: readonly GatheredPage[];
  api: ApiArtifacts | null;
}

/** What a replay judges for one spec × environment: its plan made with the current spec, the pages saved for it and the API's answers. */
export interface ReplayedTarget {
  target: AuditTarget;
  pages: PageArtifacts[];
  api: ApiArtifacts | null;
}

/**
 * Writes OUT/artifacts/: each target's plan, selection and API answers, its pages' artifacts and
 * the screens they name, found in `screenRoots` (the output folder, then the run's work folder),
 * with the run's credentials redacted everywhere.
 */
export function saveArtifacts(
  outDir: string,
  run: { startedAt: Date; selection: SavedTarget["selection"]; targets: readonly GatheredTarget[] },
  screenRoots: readonly string[],
  secrets: readonly string[],
): void {
  const savedDir = join(outDir, SAVED_DIR);
  mkdirSync(join(savedDir, PAGES_DIR), { recursive: true });
  const saved: SavedRun = {
    version: SAVED_VERSION,
    tool: toolVersion(),
    startedAt: run.startedAt.toISOString(),
    targets: run.targets.map(({ target, api }) => ({
      ...recordedTarget(target),
      selection: run.selection,
      api: hideSecretsDeep(api, secrets),
    })),
  };
  writeFileSync(join(savedDir, RUN_FILE), `${JSON.stringify(saved, null, 2)}\n`);
  for (const { file, page } of run.targets.flatMap((target) => target.pages)) {
    writeFileSync(join(savedDir, PAGES_DIR, file), `${JSON.stringify(savedPage(page, secrets), null, 2)}\n`);
    for (const screen of screensOf(page, { screenshot: true })) {
      const root = screenRoots.find((candidate) => existsSync(join(candidate, screen)));
      if (root !== undefined) copyScreen(root, screen, savedDir);
    }
  }
}

/**
 * A page's artifacts with the secrets redacted. An identify call that loses one (a visitor
 * identified by the user name of a closed site, say) keeps what the personal-data detector found
 * in it before, for identify.pii to judge. Where a login ended and where a page landed are kept
 * without query and fragment, which may carry a login's token (page.access reads their origin and
 * path alone).
 */
function savedPage(page: PageArtifacts, secrets: readonly string[]): PageArtifacts {
  const redacted = hideSecretsDeep(page, secrets);
  const calls = redacted.calls.map((call, index): CapturedCall => {
    const gathered = page.calls[index]!;
    const changed =
      call.name !== gathered.name || JSON.stringify(call.properties) !== JSON.stringify(gathered.properties);
    return call.kind === "identify" && changed ? { ...call, personalData: personalDataOf(gathered, []) } : call;
  });
  const { login, landedUrl } = redacted.access;
  const access = {
    ...redacted.access,
    landedUrl: landedUrl === null ? null : shareableUrl(landedUrl),
    login:
      login === null ? null : { ...login, finalUrl: login.finalUrl === null ? null : shareableUrl(login.finalUrl) },
  };
  return { ...redacted, calls, access };
}

/** The folder a replay reads: DIR's artifacts/. */
export function savedDirOf(dir: string): string {
  return resolve(dir, SAVED_DIR);
}

/** Reads DIR/artifacts/run.json; a folder without one, or one of another format, is refused (exit 2). */
export function readSavedRun(dir: string): SavedRun {
  const file = join(savedDirOf(dir), RUN_FILE);
  const again = `Gather them again: \`setup-audit run … --save-artifacts --out ${dir}\`, then judge them with \`setup-audit run --from-artifacts ${dir}\`.`;
  if (!existsSync(file))
    throw usageError(`${dir} holds no saved artifacts (no ${join(dir, SAVED_DIR, RUN_FILE)})`, again);
  let saved: SavedRun;
  try {
    saved = JSON.parse(readFileSync(file, "utf8")) as SavedRun;
  } catch (error) {
    throw usageError(`${file} is not the run file of saved artifacts: ${(error as Error).message}`, again);
  }
  if (saved.version !== SAVED_VERSION)
    throw usageError(
      `${file} was saved by setup-audit ${saved.tool ?? "of another version"}, in another format`,
      again,
    );
  return saved;
}

/** The pages as they are (no variation's preview, no refusal) that a saved target holds, on every viewport it gathered. */
export function savedPagesAsTheyAre(dir: string, saved: SavedTarget): PageArtifacts[] {
  return saved.units
    .filter((unit) => unit.variation === null && unit.consent === undefined)
    .flatMap((unit) =>
      Object.values(unit.artifactFiles).map((file) => ({ unit, path: join(savedDirOf(dir), PAGES_DIR, file) })),
    )
    .filter(({ path }) => existsSync(path))
    .map(({ unit, path }) =>
      ofUnit(JSON.parse(readFileSync(path, "utf8")) as PageArtifacts, { id: unit.id, kind: "page" }),
    );
}

/** A saved page's artifacts with the unit they were gathered for: artifacts saved before they named their unit get the planned unit whose file they are in. */
function ofUnit(page: PageArtifacts, unit: PageArtifacts["unit"]): PageArtifacts {
  return page.unit === undefined ? { ...page, unit } : page;
}

/**
 * The spec files a replay judges: those named (each must be one the saved run gathered), else
 * every spec the saved run gathered.
 */
export function replayedSpecFiles(saved: SavedRun, named: readonly string[], dir: string): string[] {
  const gathered = [...new Set(saved.targets.map((target) => target.specFile))];
  if (named.length === 0) return gathered;
  const stranger = named.find((file) => !gathered.some((candidate) => resolve(candidate) === resolve(file)));
  if (stranger !== undefined) {
    throw usageError(
      `${dir}'s saved artifacts hold no audit of ${stranger}: they were gathered for ${gathered.join(", ")}`,
      `Name one of those, or gather ${stranger}: \`setup-audit run ${stranger} --save-artifacts --out DIR\`.`,
    );
  }
  return [...named];
}

/**
 * Each loaded spec's saved audit, planned again with the current spec: the environment and base
 * URL the saved run audited, and its `--page`/`--viewport` selection unless `filters` name their
 * own. Every unit × viewport of that plan must have been gathered, as the same page or the same
 * variation: otherwise the replay is refused (exit 2), saying what to gather.
 */
export function replayedTargets(
  saved: SavedRun,
  specs: readonly LoadedSpec[],
  filters: Pick<TargetFilters, "env" | "pages" | "viewports">,
  dir: string,
): ReplayedTarget[] {
  return specs.flatMap((loaded) => {
    const candidates = saved.targets.filter((target) => resolve(target.specFile) === resolve(loaded.file));
    const chosen =
      filters.env === undefined ? candidates : candidates.filter((target) => target.environment === filters.env);
    if (chosen.length === 0) {
      const environments = candidates.map((target) => target.environment).join(", ");
      throw usageError(
        `${dir}'s saved artifacts hold ${loaded.file} in environment ${environments}, not ${filters.env}`,
        `Judge what was gathered (--env ${candidates[0]!.environment}), or gather ${filters.env}: \`setup-audit run ${loaded.file} --env ${filters.env} --save-artifacts --out DIR\`.`,
      );
    }
    return chosen.map((savedTarget) => {
      const target = buildTarget(loaded, {
        env: savedTarget.environment,
        pages: filters.pages.length > 0 ? filters.pages : savedTarget.selection.pages,
        viewports: filters.viewports.length > 0 ? filters.viewports : savedTarget.selection.viewports,
        baseUrl: savedTarget.baseUrl,
      });
      const pages = target.units.flatMap((unit) =>
        target.viewports.map((viewport) => readSavedPage(dir, savedTarget, unit, viewport)),
      );
      return { target, pages, api: savedTarget.api };
    });
  });
}

/** A unit's saved artifacts on a viewport; refused (exit 2) when the saved run did not gather it. */
function readSavedPage(dir: string, saved: SavedTarget, unit: AuditUnit, viewport: string): PageArtifacts {
  const same = saved.units.find((candidate) => candidate.id === unit.id);
  const matches =
    same !== undefined &&
    same.page === unit.page &&
    same.variation?.experiment === unit.variation?.experiment &&
    same.variation?.name === unit.variation?.name;
  const file = matches ? same.artifactFiles[viewport] : undefined;
  const path = file === undefined ? null : join(savedDirOf(dir), PAGES_DIR, file);
  if (path === null || !existsSync(path)) {
    const what =
      unit.variation === null
        ? `page ${unit.page}`
        : `variation "${unit.variation.name}" of experiment "${unit.variation.experiment}" on page ${unit.page}`;
    throw usageError(
      `${saved.specFile} (${saved.environment}) now audits ${what} on ${viewport}, which ${dir}'s saved artifacts do not hold: the spec or the selection changed since they were gathered`,
      `Gather again with this spec: \`setup-audit run ${saved.specFile} --env ${saved.environment} --save-artifacts --out ${dir}\`, or leave it out with --page or --viewport.`,
    );
  }
  try {
    return ofUnit(JSON.parse(readFileSync(path, "utf8")) as PageArtifacts, { id: unit.id, kind: unit.kind });
  } catch (error) {
    throw usageError(
      `${path} is not a page of saved artifacts: ${(error as Error).message}`,
      `Gather again: \`setup-audit run ${saved.specFile} --env ${saved.environment} --save-artifacts --out ${dir}\`.`,
    );
  }
}
