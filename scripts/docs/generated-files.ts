import { DEVICES_FILE, playwrightDevicesText } from "../../src/browser/viewports.js";
import { SUMMARY_SCHEMA_FILE, summaryJsonSchemaText } from "../../src/results/summary-schema.js";
import { SPEC_SCHEMA_FILE, specJsonSchemaText } from "../../src/audit-spec/json-schema.js";
import { checklistTable, checksReference } from "./checks-page.js";
import { withGeneratedPart } from "./markdown.js";
import { specReference } from "./spec-reference.js";

/** A file, or a part of one, derived from the code: `npm run generate` writes it, and a test fails while it differs. */
export interface GeneratedFile {
  /** Relative to the repository's root. */
  file: string;
  what: string;
  /** The file's text as it should be, from its text now. */
  derive(before: string): string;
}

export const GENERATED_FILES: readonly GeneratedFile[] = [
  {
    file: "docs/spec.md",
    what: "the spec reference (from the descriptions in src/audit-spec/schema.ts)",
    derive: (before) => withGeneratedPart(before, "docs/spec.md", "spec reference", specReference()),
  },
  {
    file: "docs/checks.md",
    what: "the checks (from their definitions in src/checks/)",
    derive: (before) =>
      withGeneratedPart(
        withGeneratedPart(before, "docs/checks.md", "checklist", checklistTable()),
        "docs/checks.md",
        "checks",
        checksReference(),
      ),
  },
  {
    file: SPEC_SCHEMA_FILE,
    what: "the spec's JSON Schema (from src/audit-spec/schema.ts)",
    derive: () => specJsonSchemaText(),
  },
  {
    file: SUMMARY_SCHEMA_FILE,
    what: "summary.json's JSON Schema (from src/results/summary-schema.ts)",
    derive: () => summaryJsonSchemaText(),
  },
  {
    file: DEVICES_FILE,
    what: "the devices viewports emulate (Playwright's own, of the version package.json pins)",
    derive: () => playwrightDevicesText(),
  },
];
