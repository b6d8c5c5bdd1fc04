import type { CanarySighting, CapturedCall, PageArtifacts } from "../artifacts/types.js";
import type { Finding } from "../results/summary.js";
import { capitalised } from "../text/wording.js";
import type { PlannedCanary } from "../plan/plan.js";
import { defineCheck, describeCall, madeCalls, perLoadedPage, type AuditContext } from "./check.js";
import { detectPersonalValue, findPersonalData, isAllowedKey, PERSONAL_DATA_LABEL, type PersonalDataHit } from "../privacy/personal-data.js";

/** The identify calls whose attributes are known; a call lost before the SDK existed has none. */
function identifyCalls(page: PageArtifacts): CapturedCall[] {
  return madeCalls(page).filter((call) => call.kind === "identify");
}

/** identify.attributes: the page's identify-kind calls together carry the required attributes, as simple values. */
export const identifyAttributes = defineCheck({
  id: "identify.attributes",
  scope: "page",
  title: "identify sends the required attributes as simple values",
  failureTitle: "identify misses required attributes or sends nested values",
  family: "Personal data",
  severity: "normal",
  checklist: null,
  failsWhen:
    "the page's identify-kind calls together miss an `identify.required` attribute (null counts as " +
    "missing), or one of them sends a value that is not a string, number or boolean (the key is named)",
  why:
    "Segments are built from the attributes identify sends. A missing `plan` leaves the visitor out of " +
    "every segment on it, and a nested object or array is not a value a segment can compare: the " +
    "results split by segment are then silently wrong.",
  evaluate(context): Finding[] {
    const required = context.spec.identify.required;
    return perLoadedPage(context, (page) => {
      const calls = identifyCalls(page);
      if (calls.length === 0) return { status: "skip", message: "The page made no identify call." };
      // An SDK may split a visitor's attributes over several calls (Mixpanel's identify and
      // people.set): the page's identify-kind calls are judged together.
      const problems = attributeProblems(calls, required);
      const methods = [...new Set(calls.map((call) => call.method))].join(", ");
      const evidence = { required, identifyCalls: calls.length, methods, problems };
      if (problems.length > 0) {
        return {
          status: "fail",
          message: `On ${page.viewport}: ${problems.join("; ")}. Send every attribute in identify.required, each as a string, number or boolean (flatten objects into keys like \`company_size\`).`,
          evidence,
        };
      }
      const what = required.length > 0 ? `${required.map((key) => `\`${key}\``).join(", ")} and only simple values` : "only simple values";
      const who = calls.length === 1 ? "1 identify call carries" : `${calls.length} identify-kind calls (${methods}) together carry`;
      return { status: "pass", message: `${who} ${what}.`, evidence };
    });
  },
});

/** What is wrong with the attributes the calls carry together; values are never quoted, they may be personal. */
function attributeProblems(calls: readonly CapturedCall[], required: readonly string[]): string[] {
  const valuesByKey = new Map<string, unknown[]>();
  const shapes = new Set<string>();
  for (const call of calls) {
    const attributes = call.properties;
    if (attributes === null || attributes === undefined) continue;
    if (typeof attributes !== "object" || Array.isArray(attributes)) {
      shapes.add(`the attributes of ${describeCall(call)} are ${Array.isArray(attributes) ? "an array" : `a ${typeof attributes}`}, not an object of key/value pairs`);
      continue;
    }
    for (const [key, value] of Object.entries(attributes)) valuesByKey.set(key, [...(valuesByKey.get(key) ?? []), value]);
  }
  const present = (key: string) => valuesByKey.get(key)?.some((value) => value !== null && value !== undefined) === true;
  const missing = required.filter((key) => !present(key));
  const missingProblems =
    valuesByKey.size === 0 && missing.length > 0
      ? [`no attributes were sent, so ${missing.map((key) => `\`${key}\``).join(", ")} ${missing.length === 1 ? "is" : "are"} missing`]
      : missing.map((key) => `\`${key}\` is missing${calls.length > 1 ? ` from all ${calls.length} identify-kind calls` : ""}`);
  const nested = [...valuesByKey].flatMap(([key, values]) => {
    const complex = values.find((value) => !isSimple(value));
    if (complex === undefined) return [];
    return [`\`${key}\` is ${Array.isArray(complex) ? "an array" : `a ${typeof complex === "object" ? "nested object" : typeof complex}`}, not a string, number or boolean`];
  });
  return [...shapes, ...missingProblems, ...nested];
}

/** A value a segment can compare; null and undefined count as absent, not as nested. */
function isSimple(value: unknown): boolean {
  return value === null || value === undefined || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** identify.pii: identify sends no personal data, and the canary value leaves in no request. */
export const identifyPii = defineCheck({
  id: "identify.pii",
  scope: "page",
  title: "No personal data is sent to the service",
  failureTitle: "Personal data is sent to the service",
  family: "Personal data",
  severity: "critical",
  checklist: null,
  failsWhen:
    "identify sends personal data, by key name or by value (see [Personal data](personal-data.md)), or a " +
    "journey's canary value turns up in a request to another host than the environment's domain, or to " +
    "the SDK or its collector, as it is, encoded or hashed (the host, the part of the request and the form " +
    "are named)",
  why:
    "Identify attributes are meant for segments (`plan`, `account_type`), not for people. An email, " +
    "phone number or name sent to the service is personal data processed without need, and a value " +
    "typed into a form that turns up in a request to another host, even hashed, is a leak a privacy " +
    "review will find.",
  evaluate(context): Finding[] {
    const allow = context.spec.identify.allowPersonalData;
    return perLoadedPage(context, (page) => {
      const calls = identifyCalls(page);
      const canarySteps = canariesOf(context, page.page).map((canary) => canary.step);
      if (calls.length === 0 && canarySteps.length === 0 && page.canarySightings.length === 0) {
        return { status: "skip", message: "The page made no identify call and types no canary value." };
      }
      const hits = uniqueHits(calls.flatMap((call) => personalDataOf(call, allow)));
      const leaks = page.canarySightings.map((sighting) => describeCanary(context, page.page, sighting));
      const evidence = {
        personalData: hits,
        canaryLeaks: page.canarySightings.map((sighting) => ({ ...sighting, step: sighting.step + 1, field: fillSelector(context, page.page, sighting.step) })),
      };
      const problems = [...hits.map(describeHit), ...leaks];
      if (problems.length > 0) {
        const advice = [
          ...(hits.length > 0 ? ["Stop sending personal data with identify (use an opaque user id; list a key in identify.allowPersonalData only when sending it is agreed)"] : []),
          ...(leaks.length > 0 ? ["Find the script that reads the form field and stop it sending the value"] : []),
        ];
        return { status: "fail", message: `On ${page.viewport}: ${problems.join("; ")}. ${advice.join(". ")}.`, evidence };
      }
      const checked = [
        ...(calls.length > 0 ? [`${calls.length} identify call(s) carry no personal data`] : []),
        ...(canarySteps.length > 0 ? [`the canary value of step ${canarySteps.map((step) => step + 1).join(", ")} left in no request`] : []),
      ];
      return { status: "pass", message: `${capitalised(checked.join("; "))}.`, evidence };
    });
  },
});

/** The `identify.*` checks, in the order the report shows them. */
export const IDENTIFY_CHECKS = [identifyAttributes, identifyPii] as const;

/** The key under which a personal user id is reported, named so no real attribute is mistaken for it. */
const USER_ID = "(user id)";


/** What was found where, masked: "`contact` holds an email address (j***@e***.org)". */
function describeHit(hit: PersonalDataHit): string {
  const what = `${PERSONAL_DATA_LABEL[hit.kind]} (${hit.masked}${hit.encoding === "plain" ? "" : `, ${hit.encoding}`})`;
  if (hit.key === USER_ID) return `the user id is ${what}`;
  return `\`${hit.key}\` ${hit.by === "key" ? "is named like" : "holds"} ${what}`;
}

/** Personal data in one identify call: its attributes (but those `allow` exempts), and its user id. */
export function personalDataOf(call: CapturedCall, allow: readonly string[]): PersonalDataHit[] {
  // Saved artifacts keep what was found in a call before its secrets were redacted (cli/saved-artifacts.ts).
  if (call.personalData !== undefined) return call.personalData.filter((hit) => hit.key === USER_ID || !isAllowedKey(hit.key, allow));
  const hits = findPersonalData(call.properties, allow);
  // The user id is not an attribute, so allowPersonalData does not exempt it: an email as user id is always personal.
  const userId = call.name === null ? null : detectPersonalValue(call.name);
  return userId ? [{ key: USER_ID, by: "value", ...userId }, ...hits] : hits;
}

/** The same attribute found in several calls is reported once. */
function uniqueHits(hits: readonly PersonalDataHit[]): PersonalDataHit[] {
  const seen = new Map<string, PersonalDataHit>();
  for (const hit of hits) seen.set(`${hit.key}\u0000${hit.kind}\u0000${hit.masked}`, hit);
  return [...seen.values()];
}

/** The page's journey steps that type a canary value, as the plan has them. */
function canariesOf(context: AuditContext, pageId: string): readonly PlannedCanary[] {
  return context.units.find((unit) => unit.page === pageId && unit.variation === null && unit.consent === undefined)?.canaries ?? [];
}

function fillSelector(context: AuditContext, pageId: string, stepIndex: number): string | null {
  return canariesOf(context, pageId).find((canary) => canary.step === stepIndex)?.fill.selector ?? null;
}

const REQUEST_PART: Record<CanarySighting["where"], string> = { url: "URL", body: "body", cookie: "cookies" };

/** Where a canary value went, naming the field but never the value. */
function describeCanary(context: AuditContext, pageId: string, sighting: CanarySighting): string {
  const field = fillSelector(context, pageId, sighting.step);
  const form = sighting.form === "plain" ? "as typed" : `${sighting.form === "md5" || sighting.form === "sha256" ? "hashed as " : ""}${sighting.form}`;
  return `the canary value typed into \`${field ?? "?"}\` (step ${sighting.step + 1}) was sent to ${sighting.host} in the request ${REQUEST_PART[sighting.where]}, ${form}`;
}
