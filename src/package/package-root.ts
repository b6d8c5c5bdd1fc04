import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * setup-audit's own folder, the one with its package.json: the repository's root, or
 * node_modules/setup-audit where a project installed it. The files shipped beside the code
 * (package.json, audits/) are found from here, since the sources (src/) and the compiled modules
 * (dist/src/) sit at different depths in it.
 */
export const PACKAGE_ROOT = folderWithManifest(dirname(fileURLToPath(import.meta.url)));

function folderWithManifest(folder: string): string {
  if (existsSync(join(folder, "package.json"))) return folder;
  const parent = dirname(folder);
  if (parent === folder)
    throw new Error(`setup-audit's package.json is in no folder above ${fileURLToPath(import.meta.url)}`);
  return folderWithManifest(parent);
}
