import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseDocument } from "yaml";
import { knownViewports } from "../browser/viewports.js";
import { loadSpecs, type SpecLoadResult } from "../audit-spec/load.js";
import { auditSpecSchema } from "../audit-spec/schema.js";
import { isRecord } from "../text/parse-json.js";
import { isOwnPlan } from "../tracking-plan/own-format.js";
import { isSegmentExport } from "../tracking-plan/segment-export.js";

/** The specs found in a folder, loaded, and the tracking plans left out of them. */
export interface DiscoveredSpecs {
  results: SpecLoadResult[];
  /** The folder's files that are tracking plans, not specs, in name order. */
  plans: string[];
}

/** A spec's top keys but `identify`, which setup-audit's plan format has too. */
const SPEC_ONLY_KEYS = Object.keys(auditSpecSchema.shape).filter((key) => key !== "identify");

/**
 * Every `*.yaml` of `folder`, loaded as a spec, except the tracking plans: a file that reads as one
 * (setup-audit's format: only `events` and `identify` at the top; a Segment export; a rudder-cli
 * file with `kind`) and has no spec key, or one a spec's `trackingPlan.file` names.
 */
export async function discoverSpecs(folder: string): Promise<DiscoveredSpecs> {
  const files = existsSync(folder)
    ? readdirSync(folder)
        .filter((name) => /\.ya?ml$/.test(name))
        .sort()
        .map((name) => join(folder, name))
    : [];
  const plans = new Set(files.filter(readsAsTrackingPlan));
  const loaded = await loadSpecs(
    files.filter((file) => !plans.has(file)),
    knownViewports(),
  );
  const named = new Set(
    loaded.flatMap((result) =>
      result.ok && result.spec.trackingPlan !== undefined
        ? [resolve(dirname(result.file), result.spec.trackingPlan.file)]
        : [],
    ),
  );
  for (const file of files) if (named.has(resolve(file))) plans.add(file);
  return {
    results: loaded.filter((result) => !plans.has(result.file)),
    plans: files.filter((file) => plans.has(file)),
  };
}

function readsAsTrackingPlan(file: string): boolean {
  const doc = parseDocument(readFileSync(file, "utf8"));
  if (doc.errors.length > 0) return false;
  const data: unknown = doc.toJS();
  if (!isRecord(data) || SPEC_ONLY_KEYS.some((key) => key in data)) return false;
  const ownKeys = Object.keys(data).every((key) => key === "events" || key === "identify");
  return (
    (ownKeys && (isOwnPlan(data) || isRecord(data.identify))) || isSegmentExport(data) || typeof data.kind === "string"
  );
}

/** The one line that says which files `run` and `validate` left out, and why. */
export function plansLeftOutLine(plans: readonly string[]): string {
  return plans.length === 1
    ? `Left out ${plans[0]}: a tracking plan, not a spec.`
    : `Left out ${plans.join(", ")}: tracking plans, not specs.`;
}
