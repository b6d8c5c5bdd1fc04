/**
 * `npm run generate`: rewrites what derives from the code (GENERATED_FILES): the spec reference
 * in docs/spec.md and audits/spec.schema.json from the spec's zod schema, docs/checks.md from the
 * checks' definitions, audits/summary.schema.json, and src/browser/devices.json from Playwright.
 * A test fails while any of them differs from what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GENERATED_FILES } from "./docs/generated-files.js";

const root = join(import.meta.dirname, "..");

for (const { file, what, derive } of GENERATED_FILES) {
  const path = join(root, file);
  const before = readFileSync(path, "utf8");
  const after = derive(before);
  if (after !== before) writeFileSync(path, after);
  console.log(`${file}, ${what}: ${after === before ? "up to date" : "regenerated"}.`);
}
