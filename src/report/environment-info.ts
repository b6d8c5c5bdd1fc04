import type { PageArtifacts } from "../artifacts/types.js";
import type { ReportTarget } from "../results/run-result.js";

/**
 * The report's environment info: what was audited, where, with what. It answers "which spec and
 * which browser produced this report?" when the file is forwarded weeks later.
 */

/** Environment info entries, name → value; a name is prefixed with the spec's slug when a run has several specs. */
export function environmentInfo(
  targets: readonly ReportTarget[],
  pages: readonly PageArtifacts[],
  toolVersion: string,
): Record<string, string> {
  const info: Record<string, string> = { "setup-audit": toolVersion, Browser: browsersOf(pages) };
  for (const target of targets) {
    const prefix = targets.length > 1 ? `${target.slug}: ` : "";
    info[`${prefix}Spec file`] = target.specFile;
    info[`${prefix}Spec sha256`] = target.specSha256;
    info[`${prefix}Environment`] = target.environment;
    info[`${prefix}Base URL`] = target.baseUrl;
    info[`${prefix}Viewports`] = target.viewports.join(", ");
  }
  return info;
}

/** The browsers that opened the pages (shards may have run on several), as Playwright names them. */
function browsersOf(pages: readonly PageArtifacts[]): string {
  const browsers = [...new Set(pages.flatMap((page) => (page.browser === null ? [] : [page.browser])))];
  return browsers.length > 0
    ? browsers.sort((a, b) => a.localeCompare(b, "en", { numeric: true })).join(", ")
    : "unknown (no page's audit reported)";
}
