import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { expect, test } from "@playwright/test";
import { relativeLinks } from "../scripts/docs/markdown.js";

/**
 * The README an install carries links to docs/ and a picture: each of them must be in the package,
 * or every link of `node_modules/setup-audit/README.md` is dead. The file list is npm's own
 * (`npm pack --dry-run`), without the build the real pack runs first (it adds only dist/).
 */
const ROOT = join(import.meta.dirname, "..");

function packedFiles(): Set<string> {
  const pack = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8" });
  expect(pack.status, pack.stderr).toBe(0);
  const [result] = JSON.parse(pack.stdout) as [{ files: { path: string }[] }];
  return new Set(result.files.map((file) => file.path));
}

test("every relative link of the shipped README and docs leads to a file the package ships", () => {
  const files = packedFiles();
  const pages = [...files].filter((file) => file === "README.md" || /^docs\/[^/]+\.md$/.test(file));
  expect(pages).toContain("README.md");
  const dead = pages.flatMap((page) =>
    relativeLinks(readFileSync(join(ROOT, page), "utf8"))
      .map((link) => link.split("#")[0]!)
      .filter((path) => path !== "")
      .map((path) => posix.normalize(posix.join(posix.dirname(page), decodeURIComponent(path))))
      .filter((target) => !files.has(target))
      .map((target) => `${page} → ${target}`),
  );
  expect(dead).toEqual([]);
  expect(pages).toContain("docs/getting-started.md");
});
