import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The code is as the formatter writes it (biome.json): `npx biome format --write .` formats it. */
test("every source file is formatted", () => {
  const check = spawnSync("npx", ["--no-install", "biome", "format", "--reporter=summary", "."], {
    cwd: ROOT,
    encoding: "utf8",
  });
  expect(check.status, `Unformatted files: run \`npx biome format --write .\`\n${check.stdout}${check.stderr}`).toBe(0);
});
