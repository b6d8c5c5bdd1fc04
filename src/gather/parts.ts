import type { PageInput } from "../schedule/page-input.js";
import { CallsPart } from "./calls.js";
import { CanaryPart } from "./canary.js";
import { ConsentPart } from "./consent.js";
import { ExperimentSdkPart } from "./experiment-sdk.js";
import { FlickerPart } from "./flicker.js";
import { NavigationPart } from "./navigation.js";
import { NetworkPart, TrafficPart } from "./network.js";
import { PageErrorsPart } from "./page-errors.js";
import { PageViewsPart } from "./page-views.js";
import type { BuiltPart, Gathering, GathererPart, SliceOf } from "./part.js";
import { QuietWindowPart } from "./quiet-window.js";
import { ReloadPart } from "./reload.js";
import { RoutesPart } from "./routes.js";
import { ScreenshotPart } from "./screenshot.js";
import { SdkReadyPart } from "./sdk-ready.js";
import { SdkTagPart } from "./sdk-tag.js";
import { SelectorsPart } from "./selectors.js";
import { JourneyPart } from "./steps.js";
import { VariationPart, ViewsPart } from "./variation.js";

/**
 * The parts of one page's gathering, in the order each step runs them (part.ts). The order is
 * the page's story: the observers are in place before the page loads; once it loaded, the banner
 * is answered, the SDK awaited, the variation applied and the targets seen, the journey walked,
 * the page read while its calls settle, and last it is reloaded for its exposures. Each entry says
 * how its part is built, with the parts it reads; a part that fills a slice of the artifacts says
 * that slice's value on a page never opened (its class's `empty`).
 */
export const PAGE_PARTS = [
  listed(RoutesPart, (gathering) => new RoutesPart(gathering)),
  listed(NetworkPart, (gathering) => new NetworkPart(gathering)),
  listed(TrafficPart, (gathering, built) => new TrafficPart(gathering, built(NetworkPart).capture)),
  listed(CanaryPart, (gathering, built) => new CanaryPart(gathering, built(NetworkPart).capture)),
  listed(PageErrorsPart, (_, built) => new PageErrorsPart(built(NetworkPart).capture)),
  listed(NavigationPart, (gathering) => new NavigationPart(gathering)),
  listed(ConsentPart, (gathering) => new ConsentPart(gathering)),
  listed(SdkReadyPart, (gathering, built) => new SdkReadyPart(gathering, built(CallsPart), built(NetworkPart).capture)),
  listed(VariationPart, (gathering) => new VariationPart(gathering)),
  listed(FlickerPart, (gathering) => new FlickerPart(gathering)),
  listed(ViewsPart, (gathering, built) => new ViewsPart(gathering, built(VariationPart))),
  listed(
    JourneyPart,
    (gathering, built) => new JourneyPart(gathering, built(CallsPart), built(RoutesPart).watch, built(SdkReadyPart)),
  ),
  listed(
    SdkTagPart,
    (gathering, built) =>
      new SdkTagPart(gathering, built(NavigationPart), built(CallsPart), built(NetworkPart).capture),
  ),
  listed(SelectorsPart, (gathering) => new SelectorsPart(gathering)),
  listed(ScreenshotPart, (gathering) => new ScreenshotPart(gathering)),
  listed(
    CallsPart,
    (gathering, built) => new CallsPart(gathering, built(RoutesPart).watch, built(NetworkPart).capture),
  ),
  listed(
    ExperimentSdkPart,
    (gathering, built) =>
      new ExperimentSdkPart(gathering, built(CallsPart).inits, built(NetworkPart).capture, built(RoutesPart).watch),
  ),
  listed(
    PageViewsPart,
    (gathering, built) =>
      new PageViewsPart(gathering, built(RoutesPart).watch, built(NetworkPart).capture, built(CallsPart).recorded),
  ),
  listed(QuietWindowPart, (gathering, built) => new QuietWindowPart(gathering, built(JourneyPart))),
  listed(ReloadPart, (gathering, built) => {
    const reads = { tag: built(SdkTagPart), selectors: built(SelectorsPart), screenshot: built(ScreenshotPart) };
    const [navigation, calls, sdk] = [built(NavigationPart), built(CallsPart), built(ExperimentSdkPart)];
    return new ReloadPart(gathering, navigation, calls, built(NetworkPart).capture, sdk, reads);
  }),
] as const;

/** A part's class: how `built` finds it, and, when it fills a slice of the artifacts, that slice's value on a page never opened. */
type PartClass<Part> = (abstract new (
  ...args: never[]
) => Part) &
  (Part extends { finish(): Promise<infer Slice> } ? { empty(input: PageInput): Slice } : unknown);

/** One entry of the list: the part's class and how it is built. */
interface ListedPart<Part extends GathererPart> {
  kind: PartClass<Part>;
  build(gathering: Gathering, built: BuiltPart): Part;
}

function listed<Part extends GathererPart>(
  kind: PartClass<Part>,
  build: (gathering: Gathering, built: BuiltPart) => Part,
): ListedPart<Part> {
  return { kind, build };
}

/**
 * Builds the list's parts for one page, in the list's order; a part another reads is built when
 * first asked for, once. A part read by another but missing from the list would never run: it is
 * refused.
 */
export function pageParts(gathering: Gathering): GathererPart[] {
  const built = new Map<unknown, GathererPart>();
  const build: BuiltPart = (kind) => {
    const found = built.get(kind);
    if (found !== undefined) return found as never;
    const entry = PAGE_PARTS.find((listedPart) => (listedPart.kind as unknown) === kind);
    if (entry === undefined) throw new Error(`${kind.name} is read by a part but is not in the list of parts`);
    const part = entry.build(gathering, build);
    built.set(kind, part);
    return part as never;
  };
  return PAGE_PARTS.map((entry) => build(entry.kind as never));
}

/** Every member of a union, as one type that is all of them. */
type AllOf<Union> = (Union extends unknown ? (whole: Union) => void : never) extends (whole: infer All) => void
  ? All
  : never;

/** What the parts fill together: each part's slice of the page's artifacts. */
export type Observations = AllOf<SliceOf<ReturnType<(typeof PAGE_PARTS)[number]["build"]>>>;

/** What the parts fill on a page never opened: each one's empty slice. */
export function unobserved(input: PageInput): Observations {
  const slices = PAGE_PARTS.map(({ kind }) => ("empty" in kind ? kind.empty(input) : {}));
  // Each slice is what its part's `empty` says it gives (the compiler holds it to the part's `finish`).
  return Object.assign({}, ...slices) as Observations;
}
