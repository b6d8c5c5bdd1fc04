import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { GENERATED_FILES } from "../scripts/docs/generated-files.js";

/** The docs that the code writes are current. */
const ROOT = join(import.meta.dirname, "..");
function read(page: string): string {
  return readFileSync(join(ROOT, page), "utf8");
}

for (const { file, what, derive } of GENERATED_FILES) {
  test(`${file} holds ${what} as the code gives it (else run \`npm run generate\`)`, () => {
    const text = read(file);
    expect(derive(text)).toBe(text);
  });
}
