import { isPlanLike } from "../privacy/redact.js";
import { closestMatch } from "../text/wording.js";
import { jsonType } from "./violations.js";

/** A call a draft is made from: a track's name and properties, or an identify-kind call's attributes. */
export interface DraftCall {
  kind: "track" | "identify";
  /** The event's name, for a track. */
  name: string | null;
  properties: unknown;
}

/** At most this many distinct plan-like values make an enum; more are a free value. */
const MAX_ENUM_VALUES = 5;

/** One drafted line: `key: value`, and why it is a guess (`# check:`), if it is one. */
interface DraftLine {
  text: string;
  check?: string;
}

/** The objects a group of calls sent: null and undefined as `{}`, other values left out (a draft describes objects). */
function objectsOf(calls: readonly DraftCall[]): Record<string, unknown>[] {
  return calls.flatMap((call) => {
    const properties = call.properties ?? {};
    return typeof properties === "object" && !Array.isArray(properties) ? [properties as Record<string, unknown>] : [];
  });
}

/** `n of N calls`, as the comments count. */
function ofCalls(count: number, total: number): string {
  return `${count} of ${total} call${total === 1 ? "" : "s"}`;
}

/** The schema lines of one key from every value sent for it. */
function keyLines(key: string, values: readonly unknown[], total: number): DraftLine[] {
  const sent = values.filter((value) => value !== undefined && value !== null);
  const types = [...new Set(sent.map(jsonType))].sort();
  const name = JSON.stringify(key);
  const checks: string[] = [];
  if (types.length > 1) checks.push(`sent as ${types.join(" and ")}: keep the type the plan means`);
  if (sent.length < total) checks.push(`sent by ${ofCalls(sent.length, total)}: not required`);
  const distinct = [...new Set(sent.map((value) => JSON.stringify(value)))];
  const enumerable =
    types.length === 1 && types[0] === "string" && sent.every(isPlanLike) && distinct.length <= MAX_ENUM_VALUES;
  if (enumerable) checks.push(`the value${distinct.length === 1 ? "" : "s"} seen; add the others it may take`);
  else if (types.includes("object") || types.includes("array")) checks.push("nested: its own keys are not drafted");
  const type = types.length === 0 ? "" : `type: ${types.length === 1 ? types[0] : `[${types.join(", ")}]`}`;
  const schema = enumerable ? `enum: [${distinct.join(", ")}]` : type;
  return [
    {
      text: `${name}: { ${schema} }`.replace("{  }", "{}"),
      ...(checks.length > 0 ? { check: checks.join("; ") } : {}),
    },
  ];
}

/** The JSON Schema lines of the objects a group of calls sent: required keys are those every call sent. */
function objectLines(objects: readonly Record<string, unknown>[]): DraftLine[] {
  const keys = [...new Set(objects.flatMap((object) => Object.keys(object)))].sort();
  const required = keys.filter((key) => objects.every((object) => object[key] !== undefined && object[key] !== null));
  return [
    { text: "type: object" },
    ...(required.length > 0 ? [{ text: `required: [${required.map((key) => JSON.stringify(key)).join(", ")}]` }] : []),
    ...(keys.length > 0
      ? [
          { text: "properties:" },
          ...keys.flatMap((key) =>
            keyLines(
              key,
              objects.map((object) => object[key]),
              objects.length,
            ).map((line) => ({ ...line, text: `  ${line.text}` })),
          ),
        ]
      : []),
    { text: "additionalProperties: false", check: "only the keys seen are allowed" },
  ];
}

function render(lines: readonly DraftLine[], indent: string): string[] {
  return lines.map((line) => `${indent}${line.text}${line.check === undefined ? "" : `  # check: ${line.check}`}`);
}

/**
 * A tracking plan in setup-audit's format from the calls of a run: one schema per event seen,
 * types and required keys from every call, enums for few plan-like values, and `# check:` where
 * the draft guesses or the calls disagree (a key sent with two types, or by some calls only; a
 * name close to another's).
 */
export function draftTrackingPlan(calls: readonly DraftCall[], source: string): string {
  const tracks = calls.filter(
    (call): call is DraftCall & { name: string } => call.kind === "track" && call.name !== null,
  );
  const names = [...new Set(tracks.map((call) => call.name))].sort();
  const identifies = calls.filter((call) => call.kind === "identify");
  const lines = [
    `# A tracking plan drafted by setup-audit plan draft from ${source}.`,
    '# Confirm what each "# check:" says before you trust it.',
    "events:",
  ];
  for (const name of names) {
    const close = closestMatch(name, names);
    lines.push(
      `  ${JSON.stringify(name)}:${close === undefined ? "" : `  # check: close to ${JSON.stringify(close)}: one event under two names?`}`,
      "    properties:",
    );
    lines.push(...render(objectLines(objectsOf(tracks.filter((call) => call.name === name))), "      "));
  }
  if (names.length === 0) lines[lines.length - 1] = "events: {}  # check: the run made no track call";
  if (identifies.length > 0)
    lines.push("identify:", "  traits:", ...render(objectLines(objectsOf(identifies)), "    "));
  return `${lines.join("\n")}\n`;
}
