/**
 * `npm run readme:checks`: writes README.md's check table from the checks' definitions
 * (`src/checks/`); a test fails while the README's table differs from it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withCheckTable } from "./check-table.js";

const path = join(import.meta.dirname, "../README.md");
const before = readFileSync(path, "utf8");
const after = withCheckTable(before);
writeFileSync(path, after);
console.log(after === before ? "README.md's check table is up to date." : "README.md's check table was regenerated.");
