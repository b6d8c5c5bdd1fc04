import { readFileSync } from "node:fs";
import type { AuditSpec } from "../spec/schema.js";

/**
 * The plan of one `run`: written by the CLI, read by the Playwright config and the audit tests,
 * so that every worker audits exactly what the command line asked for.
 */

/** One spec audited in one environment. */
export interface AuditTarget {
  /** The spec file as the user named it, for display and summary.json. */
  specFile: string;
  /** A short, stable name for the spec (its file name without extension). */
  slug: string;
  spec: AuditSpec;
  /** The SHA-256 of the spec file as this run read it. */
  specSha256: string;
  environment: string;
  baseUrl: string;
  /** Page ids to audit, in spec order. */
  pages: string[];
  viewports: string[];
}

/** Everything a run's workers need to know. */
export interface AuditPlan {
  runId: string;
  /** Output folder (absolute): summary.json, screenshots, allure-results. */
  outDir: string;
  /** Folder (absolute) for raw artifacts; deleted when the run ends. */
  workDir: string;
  /** Browser executable to launch; null means Playwright's own. */
  browserExecutable: string | null;
  /** A Playwright browser server (ws://…) to connect to instead of launching a browser; null for none. */
  browserEndpoint: string | null;
  /** Keep a Playwright trace of each page × viewport (`--trace`). */
  trace: boolean;
  targets: AuditTarget[];
}

/** Environment variable through which the CLI hands the plan file to Playwright. */
export const PLAN_ENV = "SETUP_AUDIT_PLAN";

/** Reads the plan named by SETUP_AUDIT_PLAN. */
export function readPlan(): AuditPlan {
  const file = process.env[PLAN_ENV];
  if (!file) {
    throw new Error(`${PLAN_ENV} is not set: audits run through \`npx setup-audit run\`, which writes the plan`);
  }
  return JSON.parse(readFileSync(file, "utf8")) as AuditPlan;
}

/** One variation of an experiment on an audited page: a unit of its own on every viewport. */
export interface PlannedVariation {
  page: string;
  experiment: string;
  variation: string;
  /** Its place in the spec (`e0v1`: the first experiment's second variation), for file names that names with any characters cannot clash in. */
  id: string;
}

/** The variations to preview: those of the experiments on the target's audited pages, in spec order. */
export function plannedVariations(target: Pick<AuditTarget, "spec" | "pages">): PlannedVariation[] {
  return target.spec.experiments.flatMap((experiment, e) =>
    target.pages.includes(experiment.page) ? experiment.variations.map((variation, v) => ({ page: experiment.page, experiment: experiment.name, variation: variation.name, id: `e${e}v${v}` })) : [],
  );
}

/** File name of one page × viewport's artifacts inside the work folder; a variation's (its planned id) beside the page's. */
export function artifactFileName(target: Pick<AuditTarget, "slug" | "environment">, page: string, viewport: string, variationId: string | null = null): string {
  return `${target.slug}.${target.environment}.${page}.${viewport}${variationId === null ? "" : `.${variationId}`}.json`.replace(/[^\w.@-]+/g, "_");
}
