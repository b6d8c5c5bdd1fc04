import type { Judgement } from "../../findings/finding.js";
import { defineCheck, specWideFinding } from "../check.js";

/** viewports.coverage: both a mobile and a desktop viewport were audited. */
export const viewportsCoverage = defineCheck({
  id: "viewports.coverage",
  scope: "run",
  title: "Mobile and desktop are both audited",
  failureTitle: "Mobile or desktop was not audited",
  family: "Pages and viewports",
  severity: "normal",
  requires: [],
  failsWhen: "mobile and desktop were not both audited",
  why:
    "Layouts, menus and even scripts differ between mobile and desktop; a setup checked on one only " +
    "can lose every event of the other, which is often half of the traffic.",
  evaluate(context): Judgement[] {
    const audited = [...new Set(context.pages.map((page) => page.viewport))];
    const mobile = audited.filter((viewport) =>
      context.pages.some((page) => page.viewport === viewport && page.mobile),
    );
    const desktop = audited.filter((viewport) => !mobile.includes(viewport));
    const missing = [...(mobile.length === 0 ? ["mobile"] : []), ...(desktop.length === 0 ? ["desktop"] : [])];
    const evidence = { audited, mobile, desktop };
    if (missing.length > 0) {
      return specWideFinding(context, {
        status: "fail",
        message: `No ${missing.join(" or ")} viewport was audited (audited: ${audited.join(", ") || "none"}). Audit both: remove --viewport, or list both in the spec's viewports.`,
        evidence,
      });
    }
    return specWideFinding(context, {
      status: "pass",
      message: `Audited on mobile (${mobile.join(", ")}) and desktop (${desktop.join(", ")}).`,
      evidence,
    });
  },
});
