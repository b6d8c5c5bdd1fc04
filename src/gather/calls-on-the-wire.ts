import { isDeepStrictEqual } from "node:util";
import type { CapturedCall } from "../artifacts/types.js";

/**
 * The calls a page made: those watched on its SDK's global, then those its collect requests carried
 * (carried-calls.ts) that none of them explains. A call made on the SDK's own instance (the one a
 * `loaded` callback receives, an npm install's) is out of the recorder's reach: it is a call like
 * any other, read from the network. One call, one record: each watched call explains one carried
 * call of its kind and name, so a call watched on the global and seen on the wire stays one.
 */
export function withCallsOnTheWire(watched: readonly CapturedCall[], carried: readonly CapturedCall[]): CapturedCall[] {
  const unexplained = [...carried];
  // Calls known by a name claim first: one without (people.set, an Identify builder) may stand for any of its kind.
  const claiming = [...watched.filter((call) => call.name !== null), ...watched.filter((call) => call.name === null)];
  for (const call of claiming) {
    const index = explainedBy(call, unexplained);
    if (index >= 0) unexplained.splice(index, 1);
  }
  return [...watched, ...unexplained];
}

/**
 * Where in `carried` the call that `call` explains is: the first of its kind and name (of its kind,
 * for a call without a name) with equal properties, else the first of its kind and name; -1 when
 * none is (not sent yet, or lost before the SDK existed).
 */
function explainedBy(call: CapturedCall, carried: readonly CapturedCall[]): number {
  if (call.state === "lost") return -1;
  const candidates = carried.flatMap((other, index) =>
    other.kind === call.kind && (call.name === null || other.name === call.name) ? [index] : [],
  );
  const equal = candidates.find((index) => isDeepStrictEqual(carried[index]!.properties, call.properties));
  return equal ?? candidates[0] ?? -1;
}
