import type { CapturedCall } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import { defineCheck, describeCall, perLoadedPage, LOADED_PAGE } from "../check.js";
import { identifyCalls } from "./calls.js";

/** identify.attributes: the page's identify-kind calls together carry the required attributes, as simple values. */
export const identifyAttributes = defineCheck({
  id: "identify.attributes",
  scope: "page",
  title: "identify sends the required attributes as simple values",
  failureTitle: "identify misses required attributes or sends nested values",
  family: "Personal data",
  severity: "normal",
  requires: [...LOADED_PAGE, "calls"],
  failsWhen:
    "the page's identify-kind calls together miss an `identify.required` attribute (null counts as " +
    "missing), or one of them sends a value that is not a string, number or boolean (the key is named)",
  why:
    "Segments are built from the attributes identify sends. A missing `plan` leaves the visitor out of " +
    "every segment on it, and a nested object or array is not a value a segment can compare: the " +
    "results split by segment are then silently wrong.",
  evaluate(context): Judgement[] {
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
      const what =
        required.length > 0
          ? `${required.map((key) => `\`${key}\``).join(", ")} and only simple values`
          : "only simple values";
      const who =
        calls.length === 1
          ? "1 identify call carries"
          : `${calls.length} identify-kind calls (${methods}) together carry`;
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
      shapes.add(
        `the attributes of ${describeCall(call)} are ${Array.isArray(attributes) ? "an array" : `a ${typeof attributes}`}, not an object of key/value pairs`,
      );
      continue;
    }
    for (const [key, value] of Object.entries(attributes))
      valuesByKey.set(key, [...(valuesByKey.get(key) ?? []), value]);
  }
  const present = (key: string) =>
    valuesByKey.get(key)?.some((value) => value !== null && value !== undefined) === true;
  const missing = required.filter((key) => !present(key));
  const missingProblems =
    valuesByKey.size === 0 && missing.length > 0
      ? [
          `no attributes were sent, so ${missing.map((key) => `\`${key}\``).join(", ")} ${missing.length === 1 ? "is" : "are"} missing`,
        ]
      : missing.map(
          (key) => `\`${key}\` is missing${calls.length > 1 ? ` from all ${calls.length} identify-kind calls` : ""}`,
        );
  const nested = [...valuesByKey].flatMap(([key, values]) => {
    const complex = values.find((value) => !isSimple(value));
    if (complex === undefined) return [];
    return [
      `\`${key}\` is ${Array.isArray(complex) ? "an array" : `a ${typeof complex === "object" ? "nested object" : typeof complex}`}, not a string, number or boolean`,
    ];
  });
  return [...shapes, ...missingProblems, ...nested];
}

/** A value a segment can compare; null and undefined count as absent, not as nested. */
function isSimple(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    typeof value === "string" ||
    typeof value === "number" ||
    typeof value === "boolean"
  );
}
