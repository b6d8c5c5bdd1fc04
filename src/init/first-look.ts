import type { BrowserContext, CDPSession, Page } from "playwright";
import { PRESET_NAMES, PRESETS, presetReady, type PresetName } from "../vendors/presets.js";
import { isKeyShapedName } from "../gather/sdk-tag.js";
import { firstLine } from "../text/wording.js";
import { waitOnPageClock } from "../browser/page-clock.js";
import { NetworkWatch } from "./network-rest.js";

/**
 * The first look at a site, before anything is known about its SDK: the page is loaded once,
 * and the window's globals are compared with those of a blank page of the same origin. What the
 * page defined, which script defines each global's methods, and every request it sent are what
 * `setup-audit init` learns the SDK, its global and its key from.
 */

/** A window global the page defined, as the first look saw it once the page had settled. */
export interface GlobalSeen {
  name: string;
  /** `typeof` the value, or `array` for an array (a snippet's stub). */
  type: string;
  /** Its method paths: its own and inherited functions, and those of the objects it holds (`people.set`). */
  methods: string[];
  /** The URL of the script that defines its main method (the page's own URL for an inline script); null when unknown. */
  definedBy: string | null;
  /** String properties whose names say they hold a key (`_writeKey`, `config.token`); the global itself when it is such a string. */
  keyProperties: { name: string; value: string }[];
}

/** A request the page sent while the first look watched. */
export interface RequestSeen {
  url: string;
  method: string;
  /** Playwright's resource type: `document`, `script`, `fetch`, `xhr`, `ping`, … */
  resourceType: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

/** What the first look saw. */
export interface FirstLook {
  /** The URL that was loaded. */
  url: string;
  /** Where it ended after redirects; null when it did not load. */
  finalUrl: string | null;
  /** Why the page could not be loaded; null when it loaded. */
  loadError: string | null;
  globals: GlobalSeen[];
  requests: RequestSeen[];
  /** The presets whose ready expression held on their own global. */
  readyPresets: PresetName[];
  /** The text of the page's inline scripts (a snippet's `analytics.load("<key>")`), the first 50, each cut at 100,000 characters. */
  inlineScripts: string[];
}

/** Method names that track an event in SDKs people use, most common first. */
export const TRACK_LIKE = ["track", "capture", "trackEvent", "logEvent", "sendEvent", "recordEvent", "event"];
/** Method paths that identify a visitor with attributes in SDKs people use, most common first. */
export const IDENTIFY_LIKE = [
  "identify",
  "identifyUser",
  "setUser",
  "setUserProperties",
  "setUserAttributes",
  "people.set",
];

/** A global as the page describes it: its methods, its string properties, and the method whose source names its script. */
type GlobalShape = ReturnType<typeof describeNewGlobals>[number];

const BLANK_PATH = "/__setup-audit-blank__";
/** At most this long for the network to rest after the load (and the banner's answer). */
const SETTLE_TIMEOUT_MS = 5_000;
/** No request started, answered or waiting for this long: the network rests (Playwright's networkidle window). */
const NETWORK_QUIET_MS = 500;
const NAVIGATION_TIMEOUT_MS = 30_000;

/**
 * Loads `url` in `context` (whose device the caller chose) and reports what the page defined
 * and sent. The page stays open for the caller (a probe, the SDK tag read).
 */
export async function takeFirstLook(
  context: BrowserContext,
  url: string,
  afterLoad?: (page: Page) => Promise<void>,
): Promise<{ look: FirstLook; page: Page }> {
  const blankUrl = new URL(BLANK_PATH, url).href;
  // A blank page of the same origin has the same secure-context globals as the site's pages.
  await context.route(blankUrl, (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title></title>" }),
  );
  const page = await context.newPage();
  await page.goto(blankUrl);
  const blankGlobals = await page.evaluate(() => Object.getOwnPropertyNames(window));
  await context.unroute(blankUrl);

  const network = new NetworkWatch(context);
  const requests: RequestSeen[] = [];
  context.on("request", (request) => {
    requests.push({
      url: request.url(),
      method: request.method(),
      resourceType: request.resourceType(),
      headers: request.headers(),
      body: request.postDataBuffer(),
    });
  });
  let loadError: string | null = null;
  try {
    const response = await page.goto(url, { waitUntil: "load", timeout: NAVIGATION_TIMEOUT_MS });
    if (response !== null && response.status() >= 400) loadError = `the server answered HTTP ${response.status()}`;
  } catch (error) {
    loadError = firstLine(error);
  }
  if (loadError !== null)
    return {
      look: { url, finalUrl: null, loadError, globals: [], requests, readyPresets: [], inlineScripts: [] },
      page,
    };
  // A consent banner, answered, lets the SDK load.
  await afterLoad?.(page);
  // SDKs swap their stub for the real SDK after fetching settings: wait for the network to rest.
  await network.rest(NETWORK_QUIET_MS, SETTLE_TIMEOUT_MS, (ms) => waitOnPageClock(page, ms));
  const shapes = await page.evaluate(describeNewGlobals, {
    blank: blankGlobals,
    preferred: [...TRACK_LIKE, ...IDENTIFY_LIKE],
  });
  const globals = await withDefiningScripts(await context.newCDPSession(page), shapes);
  const readyPresets: PresetName[] = [];
  for (const name of PRESET_NAMES) {
    const preset = PRESETS[name];
    const ready = presetReady(preset, preset.global);
    if (
      ready !== null &&
      globals.some((global) => global.name === preset.global) &&
      (await page.evaluate(`Boolean(${ready})`).catch(() => false))
    )
      readyPresets.push(name);
  }
  const inlineScripts = await page.evaluate(() =>
    [...document.scripts]
      .filter((script) => !script.src)
      .slice(0, 50)
      .map((script) => script.text.slice(0, 100_000)),
  );
  // A copy: requests the caller's probe causes later are not the page's own.
  return {
    look: { url, finalUrl: page.url(), loadError, globals, requests: [...requests], readyPresets, inlineScripts },
    page,
  };
}

/** What the page evaluates: each global the blank page lacks, with its methods and its string properties. */
function describeNewGlobals({ blank, preferred }: { blank: string[]; preferred: string[] }) {
  const known = new Set(blank);
  const win = window as unknown as Record<string, unknown>;
  const read = (holder: unknown, property: string): unknown => {
    try {
      return (holder as Record<string, unknown>)[property];
    } catch {
      return undefined;
    }
  };
  const isNative = (value: unknown) =>
    typeof value === "function" && /\{\s*\[native code\]\s*\}$/.test(Function.prototype.toString.call(value));
  const stops = new Set<unknown>([Object.prototype, Function.prototype, Array.prototype, null]);
  const functionNames = (value: object) => {
    const names = new Set<string>();
    for (
      let holder: unknown = value;
      !stops.has(holder) && holder !== undefined;
      holder = Object.getPrototypeOf(holder)
    ) {
      for (const name of Object.getOwnPropertyNames(holder))
        if (name !== "constructor" && typeof read(value, name) === "function") names.add(name);
    }
    return [...names];
  };
  return Object.getOwnPropertyNames(window)
    .filter((name) => !known.has(name))
    .flatMap((name) => {
      const value = read(win, name);
      if (value === undefined || value === null || isNative(value) || value === window) return [];
      const strings: { name: string; value: string }[] = typeof value === "string" ? [{ name, value }] : [];
      const methods: string[] = [];
      if (typeof value === "object" || typeof value === "function") {
        methods.push(...functionNames(value));
        for (const property of Object.keys(value).slice(0, 200)) {
          const inner = read(value, property);
          if (typeof inner === "string") strings.push({ name: `${name}.${property}`, value: inner });
          if (
            inner === null ||
            typeof inner !== "object" ||
            Array.isArray(inner) ||
            inner instanceof Node ||
            inner === value
          )
            continue;
          methods.push(...functionNames(inner).map((method) => `${property}.${method}`));
          for (const [nested, nestedValue] of Object.entries(inner).slice(0, 200)) {
            if (typeof nestedValue === "string")
              strings.push({ name: `${name}.${property}.${nested}`, value: nestedValue });
          }
        }
      }
      const mainMethod =
        preferred.find((path) => methods.includes(path)) ?? methods.find((path) => !path.includes(".")) ?? null;
      return [
        {
          name,
          type: Array.isArray(value) ? "array" : typeof value,
          methods: methods.slice(0, 500),
          strings: strings.slice(0, 500),
          mainMethod,
        },
      ];
    });
}

/** The globals with the URL of the script that defines each one's main method, from the function's location as DevTools knows it. */
async function withDefiningScripts(cdp: CDPSession, shapes: readonly GlobalShape[]): Promise<GlobalSeen[]> {
  const scripts = new Map<string, string>();
  cdp.on("Debugger.scriptParsed", (event) => scripts.set(event.scriptId, event.url));
  // Enabling the debugger reports every script already parsed; a page's `debugger;` statements must not pause it.
  const enabled = await cdp.send("Debugger.enable").then(
    () => cdp.send("Debugger.setSkipAllPauses", { skip: true }).then(() => true),
    () => false,
  );
  const globals: GlobalSeen[] = [];
  for (const { mainMethod, strings, ...shape } of shapes) {
    const location =
      enabled && mainMethod !== null
        ? await functionLocation(
            cdp,
            `window[${JSON.stringify(shape.name)}]${mainMethod
              .split(".")
              .map((part) => `[${JSON.stringify(part)}]`)
              .join("")}`,
          )
        : null;
    const keyProperties = strings.filter((property) => isKeyShapedName(property.name.split(".").at(-1)!));
    globals.push({ ...shape, keyProperties, definedBy: location === null ? null : scripts.get(location) || null });
  }
  await cdp.detach().catch(() => undefined);
  return globals;
}

/** The id of the script that defines the function `expression` evaluates to; null when it has none (a native function). */
async function functionLocation(cdp: CDPSession, expression: string): Promise<string | null> {
  try {
    let { objectId } = (await cdp.send("Runtime.evaluate", { expression })).result;
    // A bound method leads to its target function, which has the location.
    for (let hop = 0; objectId !== undefined && hop < 4; hop++) {
      const { internalProperties = [] } = await cdp.send("Runtime.getProperties", { objectId, ownProperties: true });
      const location = internalProperties.find((property) => property.name === "[[FunctionLocation]]")?.value?.value as
        | { scriptId?: string }
        | undefined;
      if (location?.scriptId !== undefined) return location.scriptId;
      objectId = internalProperties.find((property) => property.name === "[[TargetFunction]]")?.value?.objectId;
    }
    return null;
  } catch {
    return null;
  }
}
