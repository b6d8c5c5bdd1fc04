import type { CanarySighting, CapturedCall } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import { capitalised } from "../../text/wording.js";
import type { PlannedCanary } from "../../schedule/page-input.js";
import { defineCheck, perLoadedPage, type AuditContext, LOADED_PAGE } from "../check.js";
import {
  detectPersonalValue,
  findPersonalData,
  isAllowedKey,
  PERSONAL_DATA_LABEL,
  type PersonalDataHit,
} from "../../privacy/personal-data.js";
import { identifyCalls } from "./calls.js";

/** identify.pii: identify sends no personal data, and the canary value leaves in no request. */
export const identifyPii = defineCheck({
  id: "identify.pii",
  scope: "page",
  title: "No personal data is sent to the service",
  failureTitle: "Personal data is sent to the service",
  family: "Personal data",
  severity: "critical",
  requires: [...LOADED_PAGE, "calls", "canarySightings"],
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
  evaluate(context): Judgement[] {
    const allow = context.spec.identify.allowPersonalData;
    return perLoadedPage(context, (page) => {
      const calls = identifyCalls(page);
      const canarySteps = canariesOf(context, page.unit.id).map((canary) => canary.step);
      if (calls.length === 0 && canarySteps.length === 0 && page.canarySightings.length === 0) {
        return { status: "skip", message: "The page made no identify call and types no canary value." };
      }
      const hits = uniqueHits(calls.flatMap((call) => personalDataOf(call, allow)));
      const leaks = page.canarySightings.map((sighting) => describeCanary(context, page.unit.id, sighting));
      const evidence = {
        personalData: hits,
        canaryLeaks: page.canarySightings.map((sighting) => ({
          ...sighting,
          step: sighting.step + 1,
          field: fillSelector(context, page.unit.id, sighting.step),
        })),
      };
      const problems = [...hits.map(describeHit), ...leaks];
      if (problems.length > 0) {
        const advice = [
          ...(hits.length > 0
            ? [
                "Stop sending personal data with identify (use an opaque user id; list a key in identify.allowPersonalData only when sending it is agreed)",
              ]
            : []),
          ...(leaks.length > 0 ? ["Find the script that reads the form field and stop it sending the value"] : []),
        ];
        return {
          status: "fail",
          message: `On ${page.viewport}: ${problems.join("; ")}. ${advice.join(". ")}.`,
          evidence,
        };
      }
      const checked = [
        ...(calls.length > 0 ? [`${calls.length} identify call(s) carry no personal data`] : []),
        ...(canarySteps.length > 0
          ? [`the canary value of step ${canarySteps.map((step) => step + 1).join(", ")} left in no request`]
          : []),
      ];
      return { status: "pass", message: `${capitalised(checked.join("; "))}.`, evidence };
    });
  },
});

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
  if (call.personalData !== undefined)
    return call.personalData.filter((hit) => hit.key === USER_ID || !isAllowedKey(hit.key, allow));
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

/** The unit's journey steps that type a canary value, as the plan has them. */
function canariesOf(context: AuditContext, unitId: string): readonly PlannedCanary[] {
  return context.units.find((unit) => unit.id === unitId)?.canaries ?? [];
}

function fillSelector(context: AuditContext, unitId: string, stepIndex: number): string | null {
  return canariesOf(context, unitId).find((canary) => canary.step === stepIndex)?.fill.selector ?? null;
}

const REQUEST_PART: Record<CanarySighting["where"], string> = { url: "URL", body: "body", cookie: "cookies" };

/** Where a canary value went, naming the field but never the value. */
function describeCanary(context: AuditContext, unitId: string, sighting: CanarySighting): string {
  const field = fillSelector(context, unitId, sighting.step);
  const form =
    sighting.form === "plain"
      ? "as typed"
      : `${sighting.form === "md5" || sighting.form === "sha256" ? "hashed as " : ""}${sighting.form}`;
  return `the canary value typed into \`${field ?? "?"}\` (step ${sighting.step + 1}) was sent to ${sighting.host} in the request ${REQUEST_PART[sighting.where]}, ${form}`;
}
