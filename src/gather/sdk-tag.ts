import type { Page } from "playwright";
import type { KeySighting } from "../artifacts.js";
import { globToRegExpSource } from "../glob.js";
import type { SdkSpec } from "../spec/schema.js";

/** What the page's SDK installation says about its project key. */
export interface SdkTagFacts {
  /** The key the SDK script tag declares; null when it declares none. */
  sdkTagKey: string | null;
  /** Sightings of the spec's keys in the script tag and on the SDK global. */
  sightings: KeySighting[];
}

/**
 * Reads the SDK script tag (attributes and query parameters named like a key) and the SDK
 * global's own string properties, and notes where any of the spec's keys appear.
 */
export async function readSdkTag(page: Page, sdk: SdkSpec, projectKeys: readonly string[]): Promise<SdkTagFacts> {
  const facts = await page
    .evaluate(
      ({ pattern, global }) => {
        const matches = new RegExp(pattern);
        const tags = [...document.querySelectorAll<HTMLScriptElement>("script[src]")].filter((tag) => matches.test(tag.src));
        const declared: { name: string; value: string }[] = [];
        for (const tag of tags) {
          for (const attribute of tag.getAttributeNames()) declared.push({ name: attribute, value: tag.getAttribute(attribute) ?? "" });
          for (const [name, value] of new URL(tag.src).searchParams) declared.push({ name: `${tag.src} ?${name}`, value });
        }
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
        return { declared, properties };
      },
      { pattern: globToRegExpSource(sdk.script), global: sdk.global },
    )
    .catch(() => ({ declared: [], properties: [] }));
  const keyLike = facts.declared.find(({ name, value }) => /key/i.test(name.split("?").pop()!) && value !== "");
  const sightings: KeySighting[] = [];
  for (const key of projectKeys) {
    for (const { name, value } of facts.declared) if (value.includes(key)) sightings.push({ key, where: "script-tag", detail: name });
    for (const { name, value } of facts.properties) if (value === key) sightings.push({ key, where: "sdk-global", detail: `${sdk.global}.${name}` });
  }
  return { sdkTagKey: keyLike?.value ?? null, sightings };
}
