import type { LoginOutcome, PageArtifacts } from "../artifacts/types.js";
import type { PageInput } from "../schedule/page-input.js";
import { whoseArtifacts } from "./page.js";
import { unobserved } from "./parts.js";

/**
 * The artifacts of a page × viewport of the plan that was never gathered: what each part fills on
 * a page never opened (parts.ts), and why, so that it shows instead of vanishing. It keeps its
 * unit's kind and consent unit: the consent checks skip it saying why, and a refusal's unit is
 * judged by no page check.
 */
export function unopenedPage(input: PageInput, why: { loadError: string; login: LoginOutcome | null }): PageArtifacts {
  const observed = unobserved(input);
  return {
    ...whoseArtifacts(input),
    browser: null,
    ...observed,
    loadError: why.loadError,
    access: { ...observed.access, login: why.login },
    durationMs: 0,
  };
}
