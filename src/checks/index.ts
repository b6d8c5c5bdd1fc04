import { type CallSdk, type CheckId, type Finding, type Judgement, isProblem } from "../findings/finding.js";
import { API_CHECKS } from "./api/index.js";
import { BASELINE_CHECKS } from "./baseline/index.js";
import { CONSENT_CHECKS } from "./consent/index.js";
import type { AuditContext, Check } from "./check.js";
import { finding } from "./check.js";
import { missingRequirement } from "./inputs.js";
import { EVENTS_CHECKS } from "./events/index.js";
import { EXPERIMENT_CHECKS } from "./experiment/index.js";
import { GOALS_CHECKS } from "./goals/index.js";
import { IDENTIFY_CHECKS } from "./identify/index.js";
import { PAGE_CHECKS } from "./page/index.js";
import { PLAN_CHECKS } from "./plan/index.js";
import { REPORT_CHECKS } from "./report/index.js";
import { SDK_CHECKS } from "./sdk/index.js";
import { VIEWPORTS_CHECKS } from "./viewports/index.js";

/**
 * Every check, in the order the report and the checks page show them (CHECK_IDS's): the registry
 * everything else reads. Each family's folder lists the checks of its id prefix; a new prefix adds
 * its list here.
 */
export const CHECKS = [
  ...API_CHECKS,
  ...PAGE_CHECKS,
  ...SDK_CHECKS,
  ...EVENTS_CHECKS,
  ...GOALS_CHECKS,
  ...IDENTIFY_CHECKS,
  ...PLAN_CHECKS,
  ...EXPERIMENT_CHECKS,
  ...VIEWPORTS_CHECKS,
  ...REPORT_CHECKS,
  ...BASELINE_CHECKS,
  ...CONSENT_CHECKS,
] as const;

const BY_ID = new Map<string, Check>(CHECKS.map((check) => [check.id, check]));

/** The check an id names. */
export function checkOf(id: CheckId): Check {
  return BY_ID.get(id)!;
}

/**
 * Runs every check on one spec × environment and applies the spec's severity overrides. A check
 * that lacks what it requires is not judged: it gets the one `skip` finding its missing input or
 * artifact calls for (none for a baseline nobody asked for). A check that throws becomes one failed
 * finding, never a crashed run. Each finding carries its check's title for its status, severity and
 * family, so that what reports it needs the checks no more.
 */
export function runChecks(context: AuditContext, checks: readonly Check[] = CHECKS): Finding[] {
  return checks.flatMap((check) => {
    const checkContext = { ...context, check: check.id };
    const requires = typeof check.requires === "function" ? check.requires(context) : check.requires;
    const missing = missingRequirement(context, requires);
    let findings: Judgement[];
    if (missing !== null) {
      findings = missing.reason === null ? [] : [finding(checkContext, "skip", missing.reason)];
    } else {
      try {
        findings = check.evaluate(context);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        findings = [
          finding(
            checkContext,
            "fail",
            `The check itself failed (${reason}); this is a bug in setup-audit, please report it with the spec.`,
          ),
        ];
      }
    }
    return findings.map((found) => reported(applyOverride(aboutItsSdk(found), context.spec.checks[check.id]), check));
  });
}

/** A judgement as the run reports it: with its check's title for its status, severity and family. */
export function reported(judgement: Judgement, check: Check = checkOf(judgement.check)): Finding {
  const { check: id, status, ...where } = judgement;
  const title = isProblem(status) ? check.failureTitle : check.title;
  // In summary.json's order: the check and its status, what it is, then where and why.
  return { check: id, status, title, severity: check.severity, family: check.family, ...where };
}

/** The checks whose findings say which SDK they are about (`evidence.sdk`). */
const NAMING_THEIR_SDK = /^(sdk|events)\./;

/** A finding of `sdk.*` or `events.*` names its SDK: the analytics SDK, unless its check named the experimentation SDK. */
function aboutItsSdk(found: Judgement): Judgement {
  if (!NAMING_THEIR_SDK.test(found.check) || "sdk" in found.evidence) return found;
  const sdk: CallSdk = "analytics";
  return { ...found, evidence: { ...found.evidence, sdk } };
}

function applyOverride(found: Judgement, override: "off" | "warn" | "fail" | undefined): Judgement {
  if (override === undefined) return found;
  if (override === "off") {
    return {
      ...found,
      status: "skip",
      message: `Turned off by the spec's checks section (would have been ${found.status}: ${found.message})`,
    };
  }
  return isProblem(found.status) ? { ...found, status: override } : found;
}
