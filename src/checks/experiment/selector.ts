import type { SelectorMatch } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import { auditedEnvironment, defineCheck, finding, OPENED_PAGE } from "../check.js";
import { keptOut } from "../../artifacts/site-entry.js";

/** A chain of more compound selectors than this (`main .card > h2 span`) breaks when the markup around the target changes. */
const LONGEST_CHAIN = 3;

/**
 * Why a selector is likely to break when the page changes: position-based pseudo-classes, long
 * descendant chains, generated class names, ids with long digit runs. Empty when it looks stable.
 */
export function fragileSelectorReasons(selector: string): string[] {
  // Attribute values and strings may hold anything, `[href="#1234"]` included: judge the rest.
  const structure = selector.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""').replace(/\[[^\]]*\]/g, "[]");
  const reasons: string[] = [];
  const positional = [
    ...new Set(
      [...structure.matchAll(/:(nth-(?:last-)?(?:child|of-type)|(?:first|last|only)-(?:child|of-type)|eq)\b/g)].map(
        (match) => `:${match[1]}`,
      ),
    ),
  ];
  if (positional.length > 0) reasons.push(`position-based (${positional.join(", ")})`);
  const depth = Math.max(
    ...structure
      .replace(/\([^)]*\)/g, "()")
      .split(",")
      .map(
        (part) =>
          part
            .trim()
            .split(/\s*[>+~]\s*|\s+/)
            .filter((compound) => compound !== "").length,
      ),
  );
  if (depth > LONGEST_CHAIN) reasons.push(`a chain of ${depth} nested selectors`);
  const generated = [...structure.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)]
    .map((match) => match[1]!)
    .filter(isGeneratedClassName);
  if (generated.length > 0) reasons.push(`generated class name(s) (${generated.map((name) => `.${name}`).join(", ")})`);
  const numberedIds = [...structure.matchAll(/#(-?[_a-zA-Z][\w-]*)/g)]
    .map((match) => match[1]!)
    .filter((id) => /\d{4,}/.test(id));
  if (numberedIds.length > 0)
    reasons.push(`an id with a long number (${numberedIds.map((id) => `#${id}`).join(", ")})`);
  return reasons;
}

// Class names that CSS-in-JS libraries and CSS modules generate, which change with every build.
const GENERATED_CLASS_NAMES: readonly RegExp[] = [
  /^css-(?=[a-z]*\d)[a-z0-9]{5,}/i, // emotion: css-1x2y3z
  /^sc-[a-zA-Z0-9]+/, // styled-components: sc-bdVaJa
  /^jsx-\d+$/, // styled-jsx: jsx-123
  /^svelte-[a-z0-9]{5,}$/, // svelte: svelte-1abc2de
  /__(?=[a-z]*\d)[a-z0-9]{5}$/i, // CSS modules: Button_primary__3xYz1
];

function isGeneratedClassName(name: string): boolean {
  if (GENERATED_CLASS_NAMES.some((pattern) => pattern.test(name))) return true;
  // Any other hash: letters and digits interleaved (`e1x2y3z`), unlike `col12` or `h2`.
  return name
    .split(/[-_]+/)
    .some(
      (part) => part.length >= 5 && /^[a-z0-9]+$/i.test(part) && (part.match(/\d(?=\D)|\D(?=\d)/g)?.length ?? 0) >= 3,
    );
}

/** experiment.selector: each experiment's selector matches exactly one visible element, on each viewport. */
export const experimentSelector = defineCheck({
  id: "experiment.selector",
  // Judged per experiment × viewport from every page of the run: a shard without the
  // experiment's page would otherwise report it as not audited beside the shard that has it.
  scope: "run",
  title: "Each experiment's selector matches exactly one visible element",
  failureTitle: "An experiment's selector misses, or hits several elements",
  family: "Experiments",
  severity: "normal",
  requires: [...OPENED_PAGE, "selectors"],
  failsWhen:
    "per experiment × viewport: the selector is not valid CSS, or matches no visible element, or more " +
    "than one (**fail**, with the count); or looks fragile (**warn**): position-based (`:nth-child`, " +
    `\`:first-child\`, \`:eq\`), a chain of more than ${LONGEST_CHAIN} selectors, generated class names (\`css-1x2y3z\`, ` +
    "`sc-…`, `jsx-123`, CSS-module hashes), ids with long digit runs. A stabler selector from the matched " +
    "element's id or `data-*` attribute is suggested when it has one",
  why:
    "An experiment changes the page through its selector. One that matches nothing on mobile shows " +
    "mobile visitors the original while counting them in the variation; one that matches several " +
    "elements changes more than was designed; a fragile one breaks silently at the next deploy.",
  evaluate(context): Judgement[] {
    const viewports = [...new Set(context.pages.map((page) => page.viewport))];
    return context.spec.experiments.flatMap((experiment) =>
      viewports.map((viewport) => {
        const scope = { page: experiment.page, viewport, experiment: experiment.name };
        const page = context.pages.find(
          (candidate) => candidate.page === experiment.page && candidate.viewport === viewport,
        );
        if (page === undefined)
          return finding(
            context,
            "skip",
            `Not judged: the experiment's page "${experiment.page}" was not audited on ${viewport}.`,
            scope,
          );
        if (keptOut(page, auditedEnvironment(context).auth) !== null)
          return finding(
            context,
            "skip",
            "Not judged: the site kept the audit out of the experiment's page (page.access says why).",
            scope,
          );
        if (page.loadError !== null)
          return finding(context, "skip", "Not judged: the experiment's page did not load.", scope);
        const match = page.selectors.find((candidate) => candidate.experiment === experiment.name);
        if (match === undefined)
          return finding(context, "skip", "Not judged: the selector was not counted on this page.", scope);
        const verdict = judgeSelector(match, viewport);
        return finding(context, verdict.status, verdict.message, scope, { ...match, ...verdict.evidence });
      }),
    );
  },
});

function judgeSelector(
  match: SelectorMatch,
  viewport: string,
): { status: "pass" | "warn" | "fail"; message: string; evidence?: Record<string, unknown> } {
  const { selector, visible, stableAlternative } = match;
  const suggestion =
    stableAlternative !== null && stableAlternative !== selector ? ` — try \`${stableAlternative}\`` : "";
  if (match.matched === null)
    return { status: "fail", message: `\`${selector}\` is not a valid CSS selector. Fix the experiment's selector.` };
  if (visible === 0) {
    const hidden = match.matched > 0 ? ` (${match.matched} element(s) matched, none visible)` : "";
    return {
      status: "fail",
      message: `\`${selector}\` matches no visible element on ${viewport}${hidden}. Target an element that is shown on ${viewport} too, or the experiment changes nothing there.`,
    };
  }
  if (visible > 1) {
    return {
      status: "fail",
      message: `\`${selector}\` matches ${visible} visible elements on ${viewport}. Narrow it to the one element the experiment changes${suggestion}.`,
    };
  }
  const reasons = fragileSelectorReasons(selector);
  if (reasons.length > 0) {
    const fix =
      suggestion === ""
        ? "Give the element an id or a data-* attribute and target that."
        : `Target a stable id or data-* attribute instead${suggestion}.`;
    return {
      status: "warn",
      message: `\`${selector}\` matches one element on ${viewport} but looks fragile: ${reasons.join("; ")}. ${fix}`,
      evidence: { fragile: reasons },
    };
  }
  return { status: "pass", message: `\`${selector}\` matches exactly one visible element on ${viewport}.` };
}
