import { CHECKS } from "../checks/index.js";
import type { CheckReasons, Finding } from "../findings/finding.js";

/** Why each check of `findings` matters, as the checks say it now: kept with the run, so that its reports say what it said. */
export function checkReasons(findings: readonly Finding[]): CheckReasons {
  const judged = new Set<string>(findings.map((finding) => finding.check));
  return Object.fromEntries(
    CHECKS.filter((check) => judged.has(check.id)).map((check) => [check.id, { why: check.why }]),
  );
}
