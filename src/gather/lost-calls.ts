import type { BrowserContext } from "playwright";
import type { CapturedCall } from "../artifacts/types.js";
import type { SdkSpec } from "../audit-spec/schema.js";
import { escapeRegExp } from "../text/wording.js";
import { watchedMethods, type RecorderMessage } from "./recorder.js";

/**
 * Recovers calls that were lost because the SDK global did not exist yet. The recorder only
 * knows where the page reached for the missing global (a stack trace); the source at that spot
 * tells whether it was a `track`/`identify` call, and with which event name.
 */

/** A place in a script or document. */
export interface SourceLocation {
  url: string;
  line: number;
  column: number;
}

/** The caller's location in a stack taken inside the global's getter. */
export function callerLocation(stack: string): SourceLocation | null {
  // Frame 0 is the getter itself; frame 1 is the code that read the global.
  const frames = stack.split("\n").filter((line) => line.trim().startsWith("at "));
  const caller = frames[1];
  const match = caller?.match(/\(?((?:https?|file):\/\/[^\s()]+):(\d+):(\d+)\)?\s*$/);
  if (!match) return null;
  return { url: match[1]!, line: Number(match[2]), column: Number(match[3]) };
}

/** The method and first string argument of a call on `global` at a location, if one is there. */
export function callAt(
  source: string,
  location: Pick<SourceLocation, "line" | "column">,
  global: string,
  methods: readonly string[],
): { method: string; name: string | null } | null {
  const line = source.split(/\r?\n/)[location.line - 1];
  if (line === undefined) return null;
  // V8 points at the global's name, or at the object it is read from (`window.`): the call must
  // start at the global's first occurrence from there, not somewhere later on a long line.
  const at = line.indexOf(global, location.column - 1);
  if (at < 0 || at - (location.column - 1) > "globalThis.".length) return null;
  const pattern = new RegExp(
    `${escapeRegExp(global)}\\s*(?:\\?\\.|\\.)\\s*(${methods.map(escapeRegExp).join("|")})\\s*\\(\\s*(?:(['"\`])((?:\\\\.|(?!\\2).)*)\\2)?`,
    "y",
  );
  pattern.lastIndex = at;
  const match = pattern.exec(line);
  if (!match) return null;
  return { method: match[1]!, name: match[3] ?? null };
}

/** A read of the missing global, as the recorder reported it. */
export type MissingGlobalRead = Omit<Extract<RecorderMessage, { type: "missing-global" }>, "type">;

/** The lost calls among the reads of the missing global, with their names where the source shows them. */
export async function recoverLostCalls(
  context: BrowserContext,
  reads: readonly MissingGlobalRead[],
  sdk: SdkSpec,
  sinceStart: (epochMs: number) => number,
): Promise<CapturedCall[]> {
  const sources = new Map<string, Promise<string | null>>();
  const sourceOf = (url: string) => {
    let source = sources.get(url);
    if (!source) {
      source = context.request.get(url, { timeout: 10_000 }).then(
        (response) => (response.ok() ? response.text() : null),
        () => null,
      );
      sources.set(url, source);
    }
    return source;
  };
  const kinds = new Map(
    watchedMethods(sdk).flatMap(({ path, kind }) => (kind === "init" ? [] : [[path, kind] as const])),
  );
  const calls: CapturedCall[] = [];
  for (const read of reads) {
    const location = callerLocation(read.stack);
    const source = location ? await sourceOf(location.url) : null;
    const call = source && location ? callAt(source, location, sdk.global, [...kinds.keys()]) : null;
    if (!call) continue;
    calls.push({
      kind: kinds.get(call.method)!,
      method: call.method,
      name: call.name,
      properties: null,
      atMs: sinceStart(read.at),
      state: "lost",
      documentUrl: read.url,
    });
  }
  return calls;
}
