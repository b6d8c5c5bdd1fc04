import type { KeySighting, PageArtifacts } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import { shareableUrl } from "../../privacy/redact.js";
import { isKeyToken } from "../../text/key-token.js";
import { orJoined } from "../../text/wording.js";
import { auditedEnvironment, defineCheck, perLoadedPage, type AuditContext, LOADED_PAGE } from "../check.js";

/** Each place a key is looked for, in words. */
export const KEY_PLACES: Record<KeySighting["where"], string> = {
  "script-url": "the SDK's script URL",
  "script-tag": "the SDK's script tag",
  init: "the SDK's init call",
  "sdk-global": "the SDK global",
  collect: "a collect request",
  header: "a collect request's header",
};

function describeSighting(sighting: KeySighting): string {
  return `${KEY_PLACES[sighting.where]} (${shareableUrl(sighting.detail)})`;
}

/** The places a key was looked for, as one phrase: the init call only when the spec names init methods. */
function placesLookedAt(context: AuditContext): string {
  const places = [
    "the SDK's script URL",
    "its script tag",
    ...(context.spec.sdk.init.length > 0 ? ["its init call"] : []),
    "its global",
    "its collect requests' URLs, payloads and headers",
  ];
  return orJoined(places);
}

/** sdk.key: the page installs the audited environment's key, and no other environment's. */
export const sdkKey = defineCheck({
  id: "sdk.key",
  scope: "page",
  title: "The page installs this environment's project key",
  failureTitle: "The page installs another environment's key",
  family: "SDK installation and load order",
  severity: "critical",
  requires: [...LOADED_PAGE, "sdkReadyAtMs", "sdkTagKey", "keySightings"],
  failsWhen:
    "the SDK's script tag installs a key other than the environment's, another environment's key is seen " +
    "anywhere, or the environment's key is seen nowhere; keys are looked for where SDKs put them, and " +
    "each place is named: the SDK script's URL (path and query), key-shaped attributes of its tag (never " +
    'one whose value names a global, such as Segment\'s `data-global-segment-analytics-key="analytics"`), ' +
    "the first string argument of an `sdk.init` call (`mixpanel.init(token)`, " +
    "`rudderanalytics.load(writeKey)`), the SDK global's properties, collect URLs and payloads, and " +
    "collect request headers (`Authorization: Basic` decoded)",
  why:
    "Staging and production are separate projects. A staging key on production (or the reverse) sends " +
    "real visitors into the test project, or test traffic into the live results, and nothing in the page " +
    "looks wrong.",
  evaluate(context): Judgement[] {
    const ownKey = auditedEnvironment(context).key;
    const envOfKey = new Map(Object.entries(context.spec.environments).map(([name, env]) => [env.key, name]));
    return perLoadedPage(context, (page) => {
      if (!sdkLoaded(page))
        return { status: "skip", message: "Not judged: the SDK did not load (sdk.present reports why)." };
      const evidence = {
        expected: ownKey,
        tagKey: page.sdkTagKey,
        sightings: page.keySightings.map((sighting) => ({ ...sighting, detail: shareableUrl(sighting.detail) })),
      };
      const seenIn = [
        ...new Set(page.keySightings.filter((sighting) => sighting.key === ownKey).map(describeSighting)),
      ];
      const ownUnseen = page.sdkTagKey !== ownKey && seenIn.length === 0;
      const others = otherKeys(page, ownKey);
      if (others.size > 0) {
        const whose = (key: string) =>
          envOfKey.has(key) ? `environment "${envOfKey.get(key)}"'s key` : "no key of this spec";
        const named = [...others].map(([key, places]) => `\`${key}\` (${whose(key)}) is in ${[...places].join(", ")}`);
        const unseen = ownUnseen ? `, and environment "${context.environment}"'s key is seen nowhere` : "";
        return {
          status: "fail",
          message: `On ${page.viewport}: ${named.join("; ")}${unseen}. Install only environment "${context.environment}"'s key \`${ownKey}\` on this environment's pages; never mix keys.`,
          evidence,
        };
      }
      if (ownUnseen) {
        return {
          status: "fail",
          message: `Environment "${context.environment}"'s key \`${ownKey}\` was seen nowhere on the page: not in ${placesLookedAt(context)}. Install the SDK with key \`${ownKey}\`.`,
          evidence,
        };
      }
      const where = seenIn.length > 0 ? seenIn.join(", ") : "the SDK's script tag";
      return {
        status: "pass",
        message: `The page installs \`${ownKey}\`, seen in ${where}, and no other environment's key.`,
        evidence,
      };
    });
  },
});

/**
 * The keys other than `ownKey` the page installs or carries, each with the places it was seen in
 * words: the script tag's key, an init call's (a key-shaped one: a URL or a name given there is no
 * key) and any sighting of another environment's key (only those are looked for elsewhere).
 */
function otherKeys(page: PageArtifacts, ownKey: string): Map<string, Set<string>> {
  const others = new Map<string, Set<string>>();
  const note = (key: string, place: string) => others.set(key, (others.get(key) ?? new Set()).add(place));
  for (const sighting of page.keySightings) {
    if (sighting.key === ownKey || (sighting.where === "init" && !isKeyToken(sighting.key))) continue;
    note(sighting.key, describeSighting(sighting));
  }
  // Artifacts saved before the tag's own key was sighted know only that the tag declares it.
  if (page.sdkTagKey !== null && page.sdkTagKey !== ownKey && !others.has(page.sdkTagKey))
    note(page.sdkTagKey, KEY_PLACES["script-tag"]);
  return others;
}

/** The SDK is there: ready, its script loaded, or at work without a global (its calls read from the network). */
function sdkLoaded(page: PageArtifacts): boolean {
  return (
    page.sdkReadyAtMs !== null ||
    page.callsFromNetwork?.reason === "no-global" ||
    page.sdkScripts.some((load) => load.status !== null && load.status < 400)
  );
}
