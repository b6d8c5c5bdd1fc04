import type { BrowserContext } from "playwright";
import type { PageArtifacts } from "../artifacts/types.js";
import { NavigationPart } from "./navigation.js";
import type { PageInput } from "../schedule/page-input.js";
import type { GatherRun } from "./gather-run.js";
import { Gathering } from "./part.js";
import { type Observations, pageParts } from "./parts.js";

/**
 * Opens the page in a context that has none yet, loads it, walks its journey and records
 * everything the checks need, as its input from the plan says. Never judges. Each observation is a part (parts.ts), run through
 * the steps of part.ts in the list's order.
 */
export async function gatherPage(context: BrowserContext, input: PageInput, run: GatherRun): Promise<PageArtifacts> {
  const gathering = new Gathering(context, input, run);
  const parts = pageParts(gathering);
  gathering.parts = parts;
  const navigation = parts.find((part) => part instanceof NavigationPart)!;
  // Bindings and init scripts go to the context before its page exists: the page then starts
  // with them, instead of each being a round trip to a renderer that is still starting.
  for (const part of parts) await part.install?.();
  const page = await gathering.open();
  for (const part of parts) await part.attach?.(page);
  gathering.loaded = await navigation.load(page);
  if (gathering.loaded) for (const part of parts) await part.settle?.(page);
  const slices: unknown[] = [];
  for (const part of parts) slices.push(await part.finish?.());
  // Each slice is what its part's `finish` says it gives: together, every observation of the page
  // (the compiler checks that the parts fill each key the artifacts require).
  const observed = Object.assign({}, ...slices) as Observations;
  return {
    ...whoseArtifacts(input),
    browser: browserName(context),
    ...observed,
    ...(gathering.picturesLeftOut.length > 0 ? { picturesLeftOut: gathering.picturesLeftOut } : {}),
    durationMs: Date.now() - gathering.startedAt,
  };
}

/** The browser as Playwright knows it, type and version (`Chromium 156.0.7339.80`), whether launched here or behind a browser server. */
function browserName(context: BrowserContext): string | null {
  const browser = context.browser();
  if (!browser) return null;
  const name = browser.browserType().name();
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} ${browser.version()}`;
}

/** Which unit × viewport the artifacts are of, as its input names it. */
export function whoseArtifacts(
  input: PageInput,
): Pick<PageArtifacts, "spec" | "environment" | "unit" | "page" | "viewport" | "mobile"> {
  return {
    spec: input.spec,
    environment: input.environment,
    unit: input.unit,
    page: input.page.id,
    viewport: input.viewport,
    mobile: input.mobile,
  };
}
