import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { expect, test } from "@playwright/test";
import { GENERATED_FILES } from "../scripts/docs/generated-files.js";
import { githubSlug, relativeLinks, withoutFences } from "../scripts/docs/markdown.js";

/** The README and docs/: short where they start, linked where they go, and current where the code writes them. */
const ROOT = join(import.meta.dirname, "..");
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

function read(page: string): string {
  return readFileSync(join(ROOT, page), "utf8");
}

/** The anchors GitHub gives a page: one per heading (a repeated one gets -1, -2, …), and each `<a id>`. */
function anchorsOf(page: string): Set<string> {
  const text = withoutFences(read(page));
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = githubSlug(heading!);
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

function linksOf(page: string): string[] {
  return relativeLinks(read(page));
}

test("the README is at most 200 lines", () => {
  expect(read("README.md").split("\n").length).toBeLessThanOrEqual(200);
});

for (const page of PAGES) {
  test(`every relative link of ${page} leads to a file, and to a heading of it`, () => {
    const broken: string[] = [];
    for (const link of linksOf(page)) {
      const [path, anchor] = link.split("#", 2) as [string, string | undefined];
      const target = path === "" ? page : relative(ROOT, join(ROOT, dirname(page), decodeURIComponent(path)));
      if (!existsSync(join(ROOT, target))) broken.push(`${link}: no file ${target}`);
      else if (
        anchor !== undefined &&
        (statSync(join(ROOT, target)).isDirectory() || !target.endsWith(".md") || !anchorsOf(target).has(anchor))
      ) {
        broken.push(`${link}: ${target} has no heading #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });
}

test("the README links to every page of docs/", () => {
  const linked = new Set(linksOf("README.md").map((link) => link.split("#")[0]));
  expect(PAGES.filter((page) => page.startsWith("docs/") && !linked.has(page))).toEqual([]);
});

for (const { file, what, derive } of GENERATED_FILES) {
  test(`${file} holds ${what} as the code gives it (else run \`npm run generate\`)`, () => {
    const text = read(file);
    expect(derive(text)).toBe(text);
  });
}
