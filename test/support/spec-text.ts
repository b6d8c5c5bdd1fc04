/** The smallest valid spec as text, for tests of the loader's errors: line n of it is MINIMAL[n - 1]. */
export const MINIMAL = [
  "workspace: Acme Marketing", // 1
  "project: Demo shop", // 2
  "environments:", // 3
  "  staging:", // 4
  "    key: prj_demo_staging", // 5
  "    baseUrl: http://127.0.0.1:47412", // 6
  "sdk:", // 7
  '  script: "**/sdk/v1/sdk.js"', // 8
  "  global: expsvc", // 9
  "  track: track", // 10
  "  identify: identify", // 11
  '  collect: "**/v1/collect"', // 12
  "pages:", // 13
  "  - id: home", // 14
  "    path: /", // 15
];

/** The minimal spec with some of its lines (1-based) replaced by others, or removed (`[]`); `extra` goes at the end. */
export function minimalWith(replacements: Record<number, string | string[]>, ...extra: string[]): string {
  const lines = MINIMAL.flatMap((line, index) => replacements[index + 1] ?? line);
  return [...lines, ...extra, ""].join("\n");
}
