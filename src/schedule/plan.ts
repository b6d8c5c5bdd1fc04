import { readFileSync } from "node:fs";
import type { UnitKind } from "../artifacts/types.js";
import type { AuditSpec } from "../audit-spec/schema.js";
import { withoutUserInfo } from "../privacy/redact.js";
import type { PageInput, PlannedCanary } from "./page-input.js";

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
  /** Where the pages are opened: the environment's base URL, or `--base-url`. */
  baseUrl: string;
  /**
   * The domain every audited URL stays on: the environment's `domain`, else its own base URL's
   * host (never `--base-url`'s). The gatherer's own site and what page.domain judges.
   */
  domain: string;
  /** Page ids to audit, in spec order. */
  pages: string[];
  viewports: string[];
  /** What the gather phase audits, each on every viewport: every page as it is, then every variation previewed. */
  units: AuditUnit[];
}

/**
 * One test of the gather phase: a page as it is, or one variation of an experiment previewed on
 * it, gathered on every viewport of its target.
 */
export interface AuditUnit {
  /** Unique in its target: the page's id, with the variation's place (`pricing.e0v1`) on a preview. */
  id: string;
  /** The test's title, deterministic so that Playwright's sharding and the report stay stable: `demo-shop › signup`. */
  title: string;
  /** Which unit it is: the page as it is, a variation's preview, or a consent unit that refuses (`reject`) or has Global Privacy Control on (`gpc`). */
  kind: UnitKind;
  /** The id of the page opened. */
  page: string;
  /** The variation previewed; null for the page as it is (every experiment's control). */
  variation: PlannedVariation | null;
  /** With the spec's `consent`: a unit that refuses consent (`reject`) or has Global Privacy Control on (`gpc`), judged by consent.reject alone; absent for every other unit. */
  consent?: "reject" | "gpc";
  /** The journey's fill steps marked `canary`, whose values are searched in all traffic; none on a preview, which only experiment.variation judges. */
  canaries: PlannedCanary[];
  /** The file each viewport's artifacts are written to, in the work folder's artifacts/, by viewport. */
  artifactFiles: Record<string, string>;
  /** What the gatherer is given on each viewport, by viewport: its whole input, decided here once. */
  inputs: Record<string, PageInput>;
}

/**
 * A target as a file kept after the run records it (a shard's results, the saved artifacts):
 * without its spec, read again from its file, nor its units' inputs, which were the gatherer's
 * alone (a page's steps type literal values), and its base URL without the credentials a
 * `--base-url` may carry.
 */
export type RecordedTarget = Omit<AuditTarget, "spec" | "units"> & { units: Omit<AuditUnit, "inputs">[] };

/** The target as a file kept after the run records it. */
export function recordedTarget({ spec: _spec, units, ...target }: AuditTarget): RecordedTarget {
  return {
    ...target,
    baseUrl: withoutUserInfo(target.baseUrl),
    units: units.map(({ inputs: _inputs, ...unit }) => unit),
  };
}

/** A variation previewed as a unit of its own. */
export interface PlannedVariation {
  experiment: string;
  /** The variation's name. */
  name: string;
  /** Its place in the spec (`e0v1`: the first experiment's second variation; `e0c`: its control), for file names that names with any characters cannot clash in. */
  id: string;
  /** True for the experiment's control forced by its `control.query` (named `control`, which no variation may be): the variations are compared with it instead of the page as it is. */
  control?: true;
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

/** Where in the run's work folder the logins keep their outcomes and storage states (gather/login-state.ts), and how a storage state's file name ends: the CLI reads the run's secrets there. */
export const LOGIN_FILES = { folder: "logins", stateSuffix: ".state.json" } as const;

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
