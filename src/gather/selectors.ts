import type { Page } from "playwright";
import type { PageArtifacts, SelectorMatch } from "../artifacts/types.js";
import type { ExperimentTarget } from "../schedule/page-input.js";
import type { Gathering, GathererPart } from "./part.js";

/** Counts what each experiment's selector matches on the page, and how many matches are visible. */
export async function matchSelectors(page: Page, experiments: readonly ExperimentTarget[]): Promise<SelectorMatch[]> {
  if (experiments.length === 0) return [];
  return page
    .evaluate(
      (targets) => {
        const stableAlternative = (element: Element): string | null => {
          const candidates: string[] = [];
          if (element.id && !/\d{4,}/.test(element.id)) candidates.push(`#${CSS.escape(element.id)}`);
          for (const name of element.getAttributeNames()) {
            if (name.startsWith("data-"))
              candidates.push(`[${name}="${CSS.escape(element.getAttribute(name) ?? "")}"]`);
          }
          return candidates.find((candidate) => document.querySelectorAll(candidate).length === 1) ?? null;
        };
        return targets.map(({ name, selector }) => {
          let elements: Element[];
          try {
            elements = [...document.querySelectorAll(selector)];
          } catch {
            return { experiment: name, selector, matched: null, visible: 0, stableAlternative: null };
          }
          const visible = elements.filter((element) =>
            element.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
          );
          const first = visible[0];
          return {
            experiment: name,
            selector,
            matched: elements.length,
            visible: visible.length,
            stableAlternative: first ? stableAlternative(first) : null,
          };
        });
      },
      experiments.map(({ name, selector }) => ({ name, selector })),
    )
    .catch(() => []);
}

/** The selectors part: what each experiment's selector matches, counted once the journey is done. */
export class SelectorsPart implements GathererPart {
  /** A page never opened matched no selector. */
  static empty(): Pick<PageArtifacts, "selectors"> {
    return { selectors: [] };
  }

  private matches: Promise<SelectorMatch[]> = Promise.resolve([]);

  constructor(private readonly gathering: Gathering<"experiments">) {}

  async settle(page: Page): Promise<void> {
    this.matches = matchSelectors(page, this.gathering.input.experiments);
  }

  /** The count under way. */
  pending(): Promise<unknown> {
    return this.matches;
  }

  async finish(): Promise<Pick<PageArtifacts, "selectors">> {
    return { selectors: await this.matches };
  }
}
