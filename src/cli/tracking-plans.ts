import { dirname, resolve } from "node:path";
import type { SpecError } from "../audit-spec/errors.js";
import type { AuditSpec } from "../audit-spec/schema.js";
import { loadTrackingPlan, type TrackingPlanLoad } from "../tracking-plan/load.js";
import type { TrackingPlan } from "../tracking-plan/types.js";

/** Plans read and compiled in this run, by absolute path and format: each once, however many specs, environments or pages use it. */
const LOADED = new Map<string, TrackingPlanLoad>();

function loadOnce(spec: AuditSpec, specFile: string): TrackingPlanLoad | null {
  if (spec.trackingPlan === undefined) return null;
  const path = resolve(dirname(specFile), spec.trackingPlan.file);
  const key = `${spec.trackingPlan.format} ${path}`;
  if (!LOADED.has(key)) LOADED.set(key, loadTrackingPlan(path, spec.trackingPlan.format));
  return LOADED.get(key)!;
}

/** The problems of a spec's tracking plan, each at its file:line:col; none without one. */
export function trackingPlanErrors(spec: AuditSpec, specFile: string): SpecError[] {
  const load = loadOnce(spec, specFile);
  return load === null || load.ok ? [] : load.errors;
}

/** A spec's tracking plan, compiled; null without one. Its problems were reported when the spec was loaded. */
export function trackingPlanOf(spec: AuditSpec, specFile: string): TrackingPlan | null {
  const load = loadOnce(spec, specFile);
  if (load === null) return null;
  if (!load.ok) throw new Error(`the tracking plan ${spec.trackingPlan!.file} is invalid`);
  return load.plan;
}
