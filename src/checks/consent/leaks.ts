import type { JudgedPage } from "../../artifacts/delivery.js";
import type { ConsentArtifacts, StorageWrite, StoredName } from "../../artifacts/types.js";
import { shareableUrl } from "../../privacy/redact.js";

/** A write removed again this soon is an SDK's probe (is storage available?), not storage. */
const PROBE_MS = 100;

/** How many items a message names before it says how many more there are. */
const NAMED = 3;

/**
 * What `sdk.storage` names were written or present in a window of the unit: each once, with where
 * and when. With `removals`, a name removed in the window that the log never saw written was there
 * all the same: the browser reports cookie changes to the page once it listens, and a cookie written
 * by the page's first script may come before that (Klaro then deletes it at load).
 */
export function sdkStorage(
  consent: Pick<ConsentArtifacts, "writes">,
  stored: readonly StoredName[],
  matches: (name: string) => boolean,
  inWindow: (atMs: number) => boolean,
  removals: boolean,
): string[] {
  const { writes } = consent;
  const named = new Map<string, string>();
  writes.forEach((write, index) => {
    if (!inWindow(write.atMs)) return;
    const id = `${write.where} ${write.name}`;
    if (named.has(id)) return;
    if (write.op === "set" && !isProbe(writes, index))
      named.set(id, `${write.name} (${write.where}, written at ${write.atMs} ms)`);
    const seenWritten = writes
      .slice(0, index)
      .some((earlier) => earlier.op === "set" && earlier.where === write.where && earlier.name === write.name);
    if (write.op === "remove" && removals && !seenWritten)
      named.set(id, `${write.name} (${write.where}, deleted at ${write.atMs} ms)`);
  });
  for (const item of stored.filter((candidate) => matches(candidate.name))) {
    const id = `${item.where} ${item.name}`;
    if (!named.has(id)) named.set(id, `${item.name} (${item.where})`);
  }
  return [...named.values()];
}

/**
 * A set removed again by the same task of the page's script, or, where the task is unknown (storage
 * seen by the browser alone), within PROBE_MS: a storage probe.
 */
function isProbe(writes: readonly StorageWrite[], index: number): boolean {
  const write = writes[index]!;
  return writes.slice(index + 1).some((later) => {
    if (later.op !== "remove" || later.where !== write.where || later.name !== write.name) return false;
    return write.task !== undefined && later.task !== undefined
      ? later.task === write.task
      : later.atMs - write.atMs <= PROBE_MS;
  });
}

/** `a, b, c and 2 more`. */
export function listed(items: readonly string[]): string {
  if (items.length <= NAMED) return items.join(", ");
  return `${items.slice(0, NAMED).join(", ")} and ${items.length - NAMED} more`;
}

/** A collect request of the unit, for messages: `POST https://… at 812 ms`. */
export function requestLine(page: JudgedPage, index: number): string {
  const request = page.collect[index]!;
  return `${request.method} ${shareableUrl(request.url)} at ${request.atMs} ms`;
}
