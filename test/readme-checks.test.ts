import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { checkTable, checkTableIn, withCheckTable } from "../scripts/check-table.js";

const readme = readFileSync(join(import.meta.dirname, "../README.md"), "utf8");

test("README.md's check table is the one the checks' definitions give (else run `npm run generate`)", () => {
  expect(checkTableIn(readme)).toBe(checkTable());
  expect(withCheckTable(readme)).toBe(readme);
});
