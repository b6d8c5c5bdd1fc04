import { CallsPart } from "./calls.js";
import { CanaryPart } from "./canary.js";
import { ConsentPart } from "./consent.js";
import { FlickerPart } from "./flicker.js";
import type { NavigationPart } from "./navigation.js";
import { NetworkPart, TrafficPart } from "./network.js";
import { PageErrorsPart } from "./page-errors.js";
import { PageViewsPart } from "./page-views.js";
import type { Gathering, GathererPart } from "./part.js";
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
 * the page read while its calls settle, and last it is reloaded for its exposures. A part that
 * needs another gets it here.
 */
export function pageParts(gathering: Gathering, navigation: NavigationPart) {
  const routes = new RoutesPart(gathering);
  const network = new NetworkPart(gathering);
  const calls = new CallsPart(gathering, routes.watch, network.capture);
  const sdkReady = new SdkReadyPart(gathering, calls, network.capture);
  const variation = new VariationPart(gathering);
  const journey = new JourneyPart(gathering, calls, routes.watch, sdkReady);
  const reads = {
    tag: new SdkTagPart(gathering, navigation, calls, network.capture),
    selectors: new SelectorsPart(gathering),
    screenshot: new ScreenshotPart(gathering),
  };
  return [
    routes,
    network,
    new TrafficPart(gathering, network.capture),
    new CanaryPart(gathering, network.capture),
    new PageErrorsPart(network.capture),
    navigation,
    new ConsentPart(gathering),
    sdkReady,
    variation,
    new FlickerPart(gathering),
    new ViewsPart(gathering, variation),
    journey,
    reads.tag,
    reads.selectors,
    reads.screenshot,
    calls,
    new PageViewsPart(gathering, routes.watch, network.capture, calls.recorded),
    new QuietWindowPart(gathering, journey),
    new ReloadPart(gathering, navigation, calls, network.capture, reads),
  ] as const satisfies readonly GathererPart[];
}

/** What one part fills of the page's artifacts: what its `finish` gives. */
type SliceOf<Part> = Part extends { finish(): Promise<infer Slice> } ? Slice : object;

/** Every member of a union, as one type that is all of them. */
type AllOf<Union> = (Union extends unknown ? (whole: Union) => void : never) extends (whole: infer All) => void
  ? All
  : never;

/** What the parts fill together: each part's slice of the page's artifacts. */
export type Observations = AllOf<SliceOf<ReturnType<typeof pageParts>[number]>>;
