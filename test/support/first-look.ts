import type { FirstLook, GlobalSeen, RequestSeen } from "../../src/init/first-look.js";

/** The page a first look written out as data looked at. */
export const LOOK_PAGE = "https://shop.example.test/";

/** A global the first look saw: an object with no methods and no script, with `overrides` applied. */
export function globalWith(overrides: Partial<GlobalSeen> & { name: string }): GlobalSeen {
  return { type: "object", methods: [], definedBy: null, keyProperties: [], ...overrides };
}

/** A request the first look saw: a GET of `url` as `resourceType`, with `overrides` applied. */
export function requestWith(url: string, resourceType = "script", overrides: Partial<RequestSeen> = {}): RequestSeen {
  return { url, method: "GET", resourceType, headers: {}, body: null, ...overrides };
}

/** A first look at LOOK_PAGE that loaded and saw nothing, with `overrides` applied. */
export function lookWith(overrides: Partial<FirstLook> = {}): FirstLook {
  return {
    url: LOOK_PAGE,
    finalUrl: LOOK_PAGE,
    loadError: null,
    globals: [],
    requests: [],
    readyPresets: [],
    inlineScripts: [],
    ...overrides,
  };
}
