import type { CapturedCall } from "../artifacts/types.js";
import type { SdkSpec } from "../audit-spec/schema.js";
import { isRecord } from "../text/parse-json.js";
import type { RecorderMessage } from "./recorder.js";

/** A call the recorder saw on the SDK's global. */
type CallMessage = Extract<RecorderMessage, { type: "call" }>;

/** What a call's arguments say: its name and its properties (an identify-kind call's attributes). */
interface ReadArguments {
  name: string | null;
  properties: unknown;
}

/**
 * The call as the artifacts keep it, its name and properties read from its arguments as the SDK
 * takes them: track(name, properties), or with `sdk.properties` an event object; identify(id,
 * traits), identify(traits) and people.set(traits); a page method's first string and object.
 */
export function toCall(
  message: CallMessage,
  sinceStart: (at: number) => number,
  sdk: Pick<SdkSpec, "traits" | "properties" | "pageEvent">,
): CapturedCall {
  const { name, properties } =
    message.kind === "track"
      ? trackArguments(message.args, sdk.properties)
      : message.kind === "page"
        ? pageArguments(message.args, sdk.pageEvent)
        : identifyArguments(message.args, sdk.traits);
  // A track named sdk.pageEvent is a page view.
  const kind = message.kind === "track" && name !== null && name === sdk.pageEvent ? "page" : message.kind;
  return {
    kind,
    method: message.method,
    name,
    properties,
    atMs: sinceStart(message.at),
    state: message.state,
    documentUrl: message.url,
  };
}

/**
 * track(name, properties); with `path`, also track(event) with an event object (Amplitude's
 * `{ event_type, event_properties }`): its name is its `event_type`, `event` or `name`, its
 * properties the object at `path` in it, unless a second argument gives them (as Amplitude's
 * own event builder takes them).
 */
function trackArguments(args: readonly unknown[], path: string | null): ReadArguments {
  const [first, second] = args;
  if (path !== null && isRecord(first))
    return { name: eventObjectName(first), properties: second ?? propertyAt(first, path) };
  return { name: typeof first === "string" ? first : null, properties: second ?? null };
}

function eventObjectName(event: Record<string, unknown>): string | null {
  const name = [event.event_type, event.event, event.name].find((candidate) => typeof candidate === "string");
  return typeof name === "string" ? name : null;
}

/** A page method's call is named by its first string, else as its SDK names page views; its properties are its first object. */
function pageArguments(args: readonly unknown[], pageEvent: string | null): ReadArguments {
  const [first] = args;
  return { name: typeof first === "string" ? first : pageEvent, properties: firstObject(args) };
}

/** The first string is the user id; the first object the attributes, or with `traits` the object at that path in it (a builder's). */
function identifyArguments(args: readonly unknown[], traits: string | null): ReadArguments {
  const [first] = args;
  const argument = firstObject(args);
  return {
    name: typeof first === "string" ? first : null,
    properties: traits === null ? argument : propertyAt(argument, traits),
  };
}

function firstObject(args: readonly unknown[]): Record<string, unknown> | null {
  return (args.find(isRecord) as Record<string, unknown> | undefined) ?? null;
}

/** The value at a dotted path inside `value`; null when there is none. */
function propertyAt(value: unknown, path: string): unknown {
  const found = path
    .split(".")
    .reduce<unknown>(
      (object, part) =>
        object !== null && typeof object === "object" ? (object as Record<string, unknown>)[part] : undefined,
      value,
    );
  return found ?? null;
}
