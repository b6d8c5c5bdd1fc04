/** Small text helpers shared by the spec loader, the CLI and the checks: suggestions and lists. */

/** Edit distance between two words (optimal string alignment: a swap of neighbours counts once). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i]!;
    const above = rows[i - 1]!;
    for (let j = 1; j <= b.length; j++) {
      const substitution = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
      }
    }
  }
  return rows[a.length]![b.length]!;
}

/** Lower case with every separator removed: `Signup Success` and `signup_success` compare equal. */
function folded(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

/**
 * The candidates that look like a mistyped `wanted`: same words with other case or separators,
 * or a small edit away (one edit per four letters, at least one). Closest first.
 */
export function nearMisses(wanted: string, candidates: Iterable<string>): string[] {
  const target = folded(wanted);
  const scored = [...new Set(candidates)]
    .filter((candidate) => candidate !== wanted)
    .map((candidate) => ({ candidate, distance: editDistance(folded(candidate), target) }))
    .filter(({ distance }) => distance <= Math.max(1, Math.floor(target.length / 4)));
  return scored.sort((a, b) => a.distance - b.distance).map(({ candidate }) => candidate);
}

/** The candidate closest to `word`, when it is close enough to be what the user meant (see nearMisses). */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  return nearMisses(word, candidates)[0];
}

/** The words of a name in lower case, split at punctuation and camelCase: `data-writeKey` → data, write, key. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

/** `a`, `a or b`, `a, b or c`, with each item in backticks. */
export function orList(items: readonly string[]): string {
  return orJoined(items.map((item) => `\`${item}\``));
}

/** `a`, `a or b`, `a, b or c`, as they are. */
export function orJoined(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/** `"a", "b", "c"`: names quoted for a message. */
export function quoteList(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(", ");
}

/** `150 ms`, `1.5 s`, `30 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

/** The text with its first letter in upper case. */
export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The text with its first letter in lower case: a sentence that goes on after a colon. */
export function uncapitalised(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The text with every regular-expression special character escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** The first line of an error's message (or of any text), without terminal colour codes. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error ?? "unknown error");
  return text.replace(/\u001b\[[0-9;]*m/g, "").split("\n")[0]!;
}
