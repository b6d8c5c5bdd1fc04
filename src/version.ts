import { readFileSync } from "node:fs";

/** setup-audit's own version, from its package.json. */
export function toolVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return manifest.version;
}
