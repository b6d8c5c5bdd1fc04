import type { PageArtifacts } from "./types.js";

/** A consent unit that refused (`reject`) or had Global Privacy Control on (`gpc`): judged by consent.reject alone. */
export function isRefusal(page: Pick<PageArtifacts, "unit">): boolean {
  return page.unit.kind === "reject" || page.unit.kind === "gpc";
}

/** The page as it is: neither a variation's preview nor a refusal. What every check but the experiment and consent.reject ones judges. */
export function isPageAsItIs(page: Pick<PageArtifacts, "unit">): boolean {
  return page.unit.kind === "page";
}
