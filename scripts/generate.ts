/**
 * `npm run generate`: rewrites the files derived from the code: README.md's check table (from
 * the checks' definitions, `src/checks/`) and audits/spec.schema.json (from the spec's zod
 * schema, `src/spec/schema.ts`). A test fails while either differs from what this writes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SPEC_SCHEMA_FILE, specJsonSchemaText } from "../src/spec/json-schema.js";
import { withCheckTable } from "./check-table.js";

const root = join(import.meta.dirname, "..");

/** Writes a derived file when its text changed, and says which it was. */
function regenerate(file: string, what: string, derive: (before: string) => string): void {
  const path = join(root, file);
  const before = readFileSync(path, "utf8");
  const after = derive(before);
  if (after !== before) writeFileSync(path, after);
  console.log(`${file}: ${what} ${after === before ? "is up to date" : "was regenerated"}.`);
}

regenerate("README.md", "the check table", withCheckTable);
regenerate(SPEC_SCHEMA_FILE, "the spec's JSON Schema", specJsonSchemaText);
