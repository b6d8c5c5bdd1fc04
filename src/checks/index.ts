import type { Finding } from "../results.js";
import { apiAuth, apiGoals, apiProject, apiWorkspace } from "./api.js";
import { baselineCalls } from "./baseline.js";
import type { AuditContext, Check } from "./check.js";
import { finding } from "./check.js";
import { pageDomain } from "./domain.js";
import { eventsDelivered, eventsExpected } from "./events.js";
import { experimentGoals, experimentName, experimentSelector } from "./experiment.js";
import { goalsMatch } from "./goals.js";
import { identifyAttributes, identifyPii } from "./identify.js";
import { sdkKey } from "./keys.js";
import { pageErrors, pageLoad } from "./page.js";
import { reportWarnings } from "./report-warnings.js";
import { sdkOrder, sdkPresent } from "./sdk.js";
import { viewportsCoverage } from "./viewports.js";

/** Every check, in the order the report shows them. */
export const CHECKS: readonly Check[] = [
  apiAuth,
  apiProject,
  apiWorkspace,
  apiGoals,
  pageLoad,
  pageDomain,
  pageErrors,
  sdkPresent,
  sdkOrder,
  sdkKey,
  eventsExpected,
  eventsDelivered,
  goalsMatch,
  identifyAttributes,
  identifyPii,
  experimentName,
  experimentGoals,
  experimentSelector,
  viewportsCoverage,
  reportWarnings,
  baselineCalls,
];

/**
 * Runs every check on one spec × environment and applies the spec's severity overrides. A check
 * that throws becomes one failed finding, never a crashed run.
 */
export function runChecks(context: AuditContext, checks: readonly Check[] = CHECKS): Finding[] {
  return checks.flatMap((check) => {
    let findings: Finding[];
    try {
      findings = check.evaluate(context);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      findings = [finding(context, check.id, "fail", `The check itself failed (${reason}); this is a bug in setup-audit, please report it with the spec.`)];
    }
    return findings.map((found) => applyOverride(found, context.spec.checks[check.id]));
  });
}

function applyOverride(found: Finding, override: "off" | "warn" | "fail" | undefined): Finding {
  if (override === undefined) return found;
  if (override === "off") {
    return { ...found, status: "skip", message: `Turned off by the spec's checks section (would have been ${found.status}: ${found.message})` };
  }
  return found.status === "fail" || found.status === "warn" ? { ...found, status: override } : found;
}
