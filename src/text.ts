/** Small text helpers shared by the spec loader and the checks. */

/** Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Lower case with every separator removed: `Signup Success` and `signup_success` compare equal. */
function folded(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * The candidates that look like a mistyped `wanted`: same words with other case or separators,
 * or a small edit away. Closest first.
 */
export function nearMisses(wanted: string, candidates: Iterable<string>): string[] {
  const target = folded(wanted);
  const scored = [...new Set(candidates)]
    .filter((candidate) => candidate !== wanted)
    .map((candidate) => ({ candidate, distance: editDistance(folded(candidate), target) }))
    .filter(({ distance }) => distance <= Math.max(1, Math.floor(target.length / 4)));
  return scored.sort((a, b) => a.distance - b.distance).map(({ candidate }) => candidate);
}

/** `a`, `a or b`, `a, b or c`, with each item in backticks. */
export function orList(items: readonly string[]): string {
  const quoted = items.map((item) => `\`${item}\``);
  return quoted.length <= 1 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}
