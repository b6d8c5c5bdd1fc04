import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { scratchDir } from "./scratch.js";

/**
 * The package as a user gets it: `npm pack` of this checkout, installed with npm into a project of
 * its own under the system's temporary folder, where this repository's node_modules is out of
 * reach. The install needs no network: the project's lockfile pins the package's dependencies to
 * the entries of this repository's lockfile, whose `npm ci` left their tarballs in npm's cache, and
 * `npm ci --offline` installs from there (without a lockfile npm would ask the registry which
 * versions the ranges mean).
 */

const ROOT = join(import.meta.dirname, "../..");
const run = promisify(execFile);

/** What `npm pack --json` says of the tarball. */
export interface PackResult {
  filename: string;
  integrity: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

/** A lockfile entry, as npm writes it. */
interface LockEntry {
  version?: string;
  dev?: boolean;
  [field: string]: unknown;
}

/** The environment for npm and the CLI in the project: the npm variables of the `npm test` around us (its project's folder among them) left out, npm's cache and settings kept. */
export function projectEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(
    ([name]) => !/^npm_/i.test(name) || (/^npm_config_/i.test(name) && !/^npm_config_local_prefix$/i.test(name)),
  );
  return {
    ...Object.fromEntries(kept),
    npm_config_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    GITHUB_ACTIONS: "",
    GITHUB_STEP_SUMMARY: "",
    ...extra,
  };
}

/**
 * Packs this checkout as it is built (`npm test` builds it first): `--ignore-scripts` skips
 * prepack, whose build would empty dist/ under the tests running beside this one.
 */
export async function pack(destination: string): Promise<PackResult> {
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", destination], {
    cwd: ROOT,
    env: projectEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
  return (JSON.parse(stdout) as PackResult[])[0]!;
}

/** A new project with the packed tarball installed as a development dependency; returns its folder. */
export async function installedProject(tarballDir: string, packed: PackResult): Promise<string> {
  const project = scratchDir("setup-audit-project");
  const tarball = `file:${join(tarballDir, packed.filename)}`;
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
    dependencies: Record<string, string>;
    bin: Record<string, string>;
    engines: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  // The runtime closure of this repository's own install, at the same places under node_modules.
  const runtime = Object.entries(lock.packages).filter(([path, entry]) => path !== "" && !entry.dev);
  const packages: Record<string, LockEntry> = {
    "": { name: "audit-project", version: "1.0.0", devDependencies: { [manifest.name]: tarball } },
    [`node_modules/${manifest.name}`]: {
      version: manifest.version,
      resolved: tarball,
      integrity: packed.integrity,
      dev: true,
      dependencies: manifest.dependencies,
      bin: manifest.bin,
      engines: manifest.engines,
    },
    ...Object.fromEntries(runtime.map(([path, entry]) => [path, { ...entry, dev: true }])),
  };
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify({ name: "audit-project", version: "1.0.0", private: true, devDependencies: { [manifest.name]: tarball } }, null, 2)}\n`,
  );
  writeFileSync(
    join(project, "package-lock.json"),
    `${JSON.stringify({ name: "audit-project", version: "1.0.0", lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
  mkdirSync(join(project, "audits"));
  await run("npm", ["ci", "--offline", "--no-audit", "--no-fund"], {
    cwd: project,
    env: projectEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
  return project;
}
