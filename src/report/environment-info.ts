import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { AuditTarget } from "../plan.js";

/**
 * The report's environment info: what was audited, where, with what. It answers "which spec and
 * which browser produced this report?" when the file is forwarded weeks later.
 */

/** What the run was made with, beside its targets. */
export interface RunTools {
  /** setup-audit's version, from its package.json. */
  toolVersion: string;
  /** The browser as `Chromium 140.0.0.0`, or why it is unknown. */
  browser: string;
  /** Folder the spec files are named relative to. */
  cwd: string;
}

/** Environment info entries, name → value; a name is prefixed with the spec's slug when a run has several specs. */
export function environmentInfo(targets: readonly AuditTarget[], tools: RunTools): Record<string, string> {
  const info: Record<string, string> = { "setup-audit": tools.toolVersion, Browser: tools.browser };
  for (const target of targets) {
    const prefix = targets.length > 1 ? `${target.slug}: ` : "";
    info[`${prefix}Spec file`] = target.specFile;
    info[`${prefix}Spec sha256`] = specDigest(resolve(tools.cwd, target.specFile));
    info[`${prefix}Environment`] = target.environment;
    info[`${prefix}Base URL`] = target.baseUrl;
    info[`${prefix}Viewports`] = target.viewports.join(", ");
  }
  return info;
}

/** The SHA-256 of a spec file, so a reader can tell which version of it was audited. */
export function specDigest(file: string): string {
  try {
    return createHash("sha256").update(readFileSync(file)).digest("hex");
  } catch {
    return `unavailable (${file} could not be read)`;
  }
}

/** The version a browser executable reports, like `Chromium 140.0.7339.80`. */
export function browserVersion(executable: string): string {
  try {
    const output = execFileSync(executable, ["--version"], { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "ignore"] });
    // Debian's wrapper adds "built on Debian …"; the name and number are what identify the build.
    return output.match(/^(.*?\d+(\.\d+)+)/)?.[1]?.trim() ?? output.trim();
  } catch (error) {
    return `unknown (${executable} --version failed: ${(error as Error).message.split("\n")[0]})`;
  }
}
