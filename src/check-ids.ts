/** Every check id of the public contract (DESIGN.md); ids never change once published. */
export const CHECK_IDS = [
  "api.auth",
  "api.project",
  "api.workspace",
  "api.goals",
  "page.domain",
  "page.load",
  "page.errors",
  "sdk.present",
  "sdk.order",
  "sdk.key",
  "events.expected",
  "events.delivered",
  "goals.match",
  "identify.attributes",
  "identify.pii",
  "experiment.name",
  "experiment.goals",
  "experiment.selector",
  "viewports.coverage",
  "report.warnings",
  "baseline.calls",
] as const;

/** A stable check id. */
export type CheckId = (typeof CHECK_IDS)[number];
