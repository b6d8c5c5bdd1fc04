import type { Page } from "playwright";
import type { KeySighting, PageArtifacts } from "../artifacts/types.js";
import { globToRegExpSource } from "../url/glob.js";
import type { SdkSpec } from "../audit-spec/schema.js";
import { wordsOf } from "../text/wording.js";
import { type CallsPart, initSightings } from "./calls.js";
import type { NavigationPart } from "./navigation.js";
import { keysInScriptUrl, type NetworkCapture } from "./network.js";
import type { Gathering, GathererPart } from "./part.js";

/** What the page's SDK installation says about its project key. */
export interface SdkTagFacts {
  /** The key the SDK script tag declares; null when it declares none. */
  sdkTagKey: string | null;
  /** Sightings of the spec's keys in the script's URL, its tag and on the SDK global. */
  sightings: KeySighting[];
}

/** One SDK script tag as the page had it: its resolved URL, its attributes and the URL's query parameters. */
export interface ScriptTagRead {
  /** The script's URL, resolved against the document (`script.src`). */
  src: string;
  /** Every attribute but `src` (the URL is judged as a whole). */
  attributes: TagValue[];
  /** Every query parameter of the URL. */
  query: TagValue[];
}

/** An attribute or query parameter of the SDK's script tag. */
export interface TagValue {
  name: string;
  value: string;
  /** True when the value, read in the page, was a plain identifier naming a property of `window`. */
  onWindow: boolean;
}

/** A plain JavaScript identifier: what a value that names a global looks like. */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * True when an attribute or query parameter's name says it holds a key: one of its words
 * (split at punctuation and camelCase) ends in `key` or `token` (`data-write-key`, `apiKey`,
 * `writekey`, `data-token`), so that `data-keyboard` or `data-tokenizer` do not.
 */
export function isKeyShapedName(name: string): boolean {
  return wordsOf(name).some((word) => word.endsWith("key") || word.endsWith("token"));
}

/**
 * True when a tag's value names a global rather than holding a key: it is the SDK's global
 * (Segment's `data-global-segment-analytics-key="analytics"`), or a plain identifier that was
 * a property of `window` when the tag was read.
 */
export function namesGlobal(value: string, sdkGlobal: string, onWindow: boolean): boolean {
  return value === sdkGlobal || (IDENTIFIER.test(value) && onWindow);
}

/**
 * Judges nothing, only reads: the key the SDK's script tags declare (the first key-shaped
 * attribute, then query parameter, whose value is not empty and names no global), and where
 * the spec's keys, and a declared key of none of them, appear: in the script's URL (`script-url`)
 * or in an attribute (`script-tag`).
 */
export function scriptTagFacts(
  tags: readonly ScriptTagRead[],
  sdkGlobal: string,
  projectKeys: readonly string[],
): SdkTagFacts {
  let sdkTagKey: string | null = null;
  const sightings: KeySighting[] = [];
  for (const tag of tags) {
    const declared: KeySighting | null = sdkTagKey === null ? declaredKey(tag, sdkGlobal) : null;
    if (declared !== null) {
      sdkTagKey = declared.key;
      // A key of none of the spec's environments is sighted here alone, so that sdk.key can say where the page installs it.
      if (!projectKeys.includes(declared.key)) sightings.push(declared);
    }
    sightings.push(...keysInScriptUrl(tag.src, projectKeys));
    for (const key of projectKeys) {
      if (key === "") continue;
      for (const { name, value } of tag.attributes)
        if (value.includes(key)) sightings.push({ key, where: "script-tag", detail: name });
    }
  }
  return { sdkTagKey, sightings };
}

/** The key a tag declares, where it declares it: its first key-shaped attribute, then query parameter, whose value is not empty and names no global. */
function declaredKey(tag: ScriptTagRead, sdkGlobal: string): KeySighting | null {
  const declares = ({ name, value, onWindow }: TagValue) =>
    value !== "" && isKeyShapedName(name) && !namesGlobal(value, sdkGlobal, onWindow);
  const attribute = tag.attributes.find(declares);
  if (attribute !== undefined) return { key: attribute.value, where: "script-tag", detail: attribute.name };
  const parameter = tag.query.find(declares);
  return parameter === undefined ? null : { key: parameter.value, where: "script-url", detail: tag.src };
}

/**
 * Reads the SDK script tags (their URLs, attributes and query parameters) and the SDK global's
 * own string properties, and notes where any of the spec's keys appear.
 */
export async function readSdkTag(page: Page, sdk: SdkSpec, projectKeys: readonly string[]): Promise<SdkTagFacts> {
  const facts = await page
    .evaluate(
      ({ pattern, global }) => {
        const matches = new RegExp(pattern);
        const identifier = /^[A-Za-z_$][\w$]*$/;
        const onWindow = (value: string) => identifier.test(value) && value in window;
        const tags = [...document.querySelectorAll<HTMLScriptElement>("script[src]")]
          .filter((tag) => matches.test(tag.src))
          .map((tag) => ({
            src: tag.src,
            attributes: tag
              .getAttributeNames()
              .filter((name) => name !== "src")
              .map((name) => {
                const value = tag.getAttribute(name) ?? "";
                return { name, value, onWindow: onWindow(value) };
              }),
            query: URL.canParse(tag.src)
              ? [...new URL(tag.src).searchParams].map(([name, value]) => ({ name, value, onWindow: onWindow(value) }))
              : [],
          }));
        const sdkObject = (window as unknown as Record<string, unknown>)[global];
        const properties: { name: string; value: string }[] = [];
        if (sdkObject !== null && typeof sdkObject === "object") {
          for (const [name, value] of Object.entries(sdkObject)) {
            if (typeof value === "string") properties.push({ name, value });
            else if (value !== null && typeof value === "object" && !Array.isArray(value)) {
              for (const [inner, innerValue] of Object.entries(value)) {
                if (typeof innerValue === "string") properties.push({ name: `${name}.${inner}`, value: innerValue });
              }
            }
          }
        }
        return { tags, properties };
      },
      { pattern: globToRegExpSource(sdk.script), global: sdk.global },
    )
    .catch(() => ({ tags: [] as ScriptTagRead[], properties: [] as { name: string; value: string }[] }));
  const { sdkTagKey, sightings } = scriptTagFacts(facts.tags, sdk.global, projectKeys);
  for (const key of projectKeys) {
    for (const { name, value } of facts.properties)
      if (value === key) sightings.push({ key, where: "sdk-global", detail: `${sdk.global}.${name}` });
  }
  return { sdkTagKey, sightings };
}

/**
 * The SDK tag part: the page's SDK tag read once its journey is done (the read overlaps the wait
 * for its calls), again where the page ended if it moved on meanwhile; with the keys every other
 * part saw.
 */
export class SdkTagPart implements GathererPart {
  /** A page never opened showed no tag and no key. */
  static empty(): Pick<PageArtifacts, "sdkTagKey" | "keySightings"> {
    return { sdkTagKey: null, keySightings: [] };
  }

  private facts: Promise<SdkTagFacts> = Promise.resolve({ sdkTagKey: null, sightings: [] });
  /** How many URLs the page had been sent to when its tag was read. */
  private navigationsAtRead = 0;

  constructor(
    private readonly gathering: Gathering<"sdk" | "projectKeys">,
    private readonly navigation: NavigationPart,
    private readonly calls: CallsPart,
    private readonly network: NetworkCapture,
  ) {}

  async settle(page: Page): Promise<void> {
    this.navigationsAtRead = this.navigation.count();
    this.facts = this.readNow(page);
  }

  /** The read under way. */
  pending(): Promise<unknown> {
    return this.facts;
  }

  /** Reads the tag again where the page is, if it moved on since it was read. */
  async rereadIfMoved(page: Page): Promise<void> {
    if (this.navigation.count() === this.navigationsAtRead) return;
    const reread = await this.readNow(page);
    this.facts = Promise.resolve(reread);
    this.navigationsAtRead = this.navigation.count();
  }

  async finish(): Promise<Pick<PageArtifacts, "sdkTagKey" | "keySightings">> {
    const { loaded, page } = this.gathering;
    let facts = await this.facts;
    // A page that moved on while its tag was read (before any reload) is read again where it ended.
    if (loaded && this.navigation.ownNavigations().length !== this.navigationsAtRead) facts = await this.readNow(page);
    return {
      sdkTagKey: facts.sdkTagKey,
      keySightings: uniqueSightings([
        ...facts.sightings,
        ...initSightings(this.calls.inits),
        ...this.network.keySightings,
      ]),
    };
  }

  private readNow(page: Page): Promise<SdkTagFacts> {
    return readSdkTag(page, this.gathering.input.sdk, this.gathering.input.projectKeys);
  }
}

/** Each sighting once, by key, place and detail. */
function uniqueSightings(sightings: KeySighting[]): KeySighting[] {
  const seen = new Set<string>();
  return sightings.filter((sighting) => {
    const id = `${sighting.key} ${sighting.where} ${sighting.detail}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
