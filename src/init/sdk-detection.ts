import { decodeCollectBody } from "../gather/payload.js";
import { urlMatcher } from "../url/glob.js";
import { PRESET_NAMES, PRESETS, type PresetName } from "../vendors/presets.js";
import { IDENTIFY_LIKE, TRACK_LIKE, type FirstLook, type GlobalSeen } from "./first-look.js";

/**
 * Which SDK a page installs, from the first look: a preset by its fingerprints (a script URL its
 * glob matches, its global with its track methods, its ready marker), or else any window global
 * with track-like methods that a script defines. Pure: the first look's data in, a verdict out.
 */

/** A preset the page matches, and what matched. */
export interface PresetFound {
  preset: PresetName;
  /** The global it lives on (the preset's own, or another one its script defines); null when the page defines none (an npm install that keeps the SDK in its own scope). */
  global: GlobalSeen | null;
  /** Script URLs the page requested that the preset's script glob matches. */
  scriptUrls: string[];
  /** True when the preset's ready expression held. */
  ready: boolean;
  /** Requests the preset's collect glob matches that carried events: how an SDK without a global shows itself. */
  collectUrls: string[];
}

/** A window global that looks like an SDK: a script defines it and it has a track-like method. */
export interface GenericFound {
  global: GlobalSeen;
  track: string;
  /** Its identify-like method; null when it has none. */
  identify: string | null;
  /** Its methods that may take the key (`init`, `load`). */
  init: string[];
  /** True when the script that defines it is on another origin than the page. */
  thirdParty: boolean;
}

/** What the first look says about the page's SDKs. */
export interface SdkDetection {
  /** The best-matching preset; null when none matched. */
  preset: PresetFound | null;
  /** The SDK-like globals that are not the preset's, most likely first. */
  generic: GenericFound[];
}

const INIT_LIKE = ["init", "load"];

function isSdkShaped(global: GlobalSeen): boolean {
  return global.type === "object" || global.type === "function";
}

/** Every preset the page matches, best first: two fingerprints beat one, a script seen beats a name, and a global beats collect traffic alone. */
export function matchingPresets(look: FirstLook): PresetFound[] {
  const scripts = look.requests.filter((request) => request.resourceType === "script").map((request) => request.url);
  const found = PRESET_NAMES.flatMap((name): { found: PresetFound; score: number }[] => {
    const preset = PRESETS[name];
    const isPresetScript = urlMatcher(preset.script);
    const scriptUrls = scripts.filter(isPresetScript);
    const isPresetCollect = urlMatcher(preset.collect);
    const collectUrls = look.requests
      .filter(
        (request) =>
          isPresetCollect(request.url) &&
          decodeCollectBody(request.body, request.url, request.headers["content-encoding"]).events.length > 0,
      )
      .map((request) => request.url);
    // No global of the preset's name at all, yet its collect requests carry events: an npm install without a global.
    if (!look.globals.some((global) => global.name === preset.global) && collectUrls.length > 0) {
      return [{ found: { preset: name, global: null, scriptUrls, ready: false, collectUrls }, score: 1 }];
    }
    // A snippet's stub (an array with the SDK's methods) stands for the preset while its script
    // is requested: Segment swaps it only once its settings arrive, which may outlast the look.
    const mayBePreset = (global: GlobalSeen) =>
      isSdkShaped(global) || (global.type === "array" && scriptUrls.length > 0);
    return look.globals
      .filter((global) => mayBePreset(global) && preset.track.every((path) => global.methods.includes(path)))
      .flatMap((global) => {
        const definedByPreset = global.definedBy !== null && isPresetScript(global.definedBy);
        const ready = global.name === preset.global && look.readyPresets.includes(name);
        // A global of another name is the preset's only when the preset's script defines it.
        if (global.name !== preset.global && !definedByPreset) return [];
        if (scriptUrls.length === 0 && !ready && !definedByPreset) return [];
        const score =
          (scriptUrls.length > 0 ? 2 : 0) +
          (ready ? 2 : 0) +
          (definedByPreset ? 1 : 0) +
          (global.name === preset.global ? 1 : 0);
        return [{ found: { preset: name, global, scriptUrls, ready, collectUrls }, score }];
      });
  });
  return found.sort((a, b) => b.score - a.score).map(({ found: match }) => match);
}

/** The SDK-like globals a script (not the page's own inline code) defines, most likely first. */
export function genericSdks(look: FirstLook): GenericFound[] {
  const pageUrl = look.finalUrl ?? look.url;
  const pageOrigin = new URL(pageUrl).origin;
  return look.globals
    .flatMap((global): GenericFound[] => {
      const track = TRACK_LIKE.find((path) => global.methods.includes(path));
      if (
        !isSdkShaped(global) ||
        track === undefined ||
        global.definedBy === null ||
        !/^https?:/.test(global.definedBy) ||
        global.definedBy === pageUrl
      )
        return [];
      return [
        {
          global,
          track,
          identify: IDENTIFY_LIKE.find((path) => global.methods.includes(path)) ?? null,
          init: INIT_LIKE.filter((path) => global.methods.includes(path)),
          thirdParty: new URL(global.definedBy).origin !== pageOrigin,
        },
      ];
    })
    .sort(
      (a, b) =>
        Number(b.thirdParty) - Number(a.thirdParty) || Number(b.identify !== null) - Number(a.identify !== null),
    );
}

/** The preset the page matches best, and the other SDK-like globals (not defined by the preset's script). */
export function detectSdk(look: FirstLook): SdkDetection {
  const preset = matchingPresets(look)[0] ?? null;
  const presetGlobal = preset?.global ?? null;
  const generic = genericSdks(look).filter(
    (candidate) =>
      presetGlobal === null ||
      (candidate.global.name !== presetGlobal.name &&
        (presetGlobal.definedBy === null || candidate.global.definedBy !== presetGlobal.definedBy)),
  );
  return { preset, generic };
}
