import type { PageArtifacts } from "./types.js";

/** A consent unit that refused (`reject`) or had Global Privacy Control on (`gpc`): judged by consent.reject alone. */
export function isRefusal(page: Pick<PageArtifacts, "consent">): boolean {
  return page.consent !== undefined && page.consent.unit !== "page";
}

/** The page as it is: neither a variation's preview nor a refusal. What every check but the experiment and consent.reject ones judges. */
export function isPageAsItIs(page: Pick<PageArtifacts, "variation" | "consent">): boolean {
  return page.variation === null && !isRefusal(page);
}
