import { basename, extname } from "node:path";
import type { AuditTarget } from "../schedule/plan.js";
import { planTarget } from "../schedule/target.js";
import { knownViewports } from "../browser/viewports.js";
import { closestMatch } from "../text/wording.js";
import { isOnDomain } from "../url/domain.js";
import type { LoadedSpec } from "../audit-spec/load.js";
import { usageError } from "../runner/errors.js";

/** What the command line narrows a run to. */
export interface TargetFilters {
  env: string | undefined;
  viewports: string[];
  pages: string[];
  baseUrl: string | undefined;
  /** The service API's base URL instead of the spec's `api.baseUrl`: the demo's mock service listens on a free port. */
  apiBaseUrl?: string | undefined;
}

/** Turns a loaded spec and the command line's filters into what the run audits. */
export function buildTarget({ file: specFile, spec, sha256 }: LoadedSpec, filters: TargetFilters): AuditTarget {
  const envNames = Object.keys(spec.environments);
  const environment = filters.env ?? spec.defaultEnvironment ?? envNames[0]!;
  const env = spec.environments[environment];
  if (!env) {
    throw usageError(
      `${specFile} has no environment "${environment}"`,
      `Use --env with one of: ${envNames.join(", ")}.`,
    );
  }
  const unknownPages = filters.pages.filter((id) => !spec.pages.some((page) => page.id === id));
  if (unknownPages.length > 0 && unknownPages.length === filters.pages.length) {
    const ids = spec.pages.map((page) => page.id);
    const guess = closestMatch(unknownPages[0]!, ids);
    throw usageError(
      `${specFile} has no page ${unknownPages.join(", ")}`,
      guess ? `Did you mean --page ${guess}?` : `Pages: ${ids.join(", ")}.`,
    );
  }
  const viewports = filters.viewports.length > 0 ? filters.viewports : spec.viewports;
  const known = knownViewports();
  for (const viewport of viewports) {
    if (!known.includes(viewport)) {
      const guess = closestMatch(viewport, known);
      throw usageError(
        `Unknown viewport "${viewport}"`,
        guess ? `Did you mean "${guess}"?` : "Use desktop, mobile or a Playwright device name.",
      );
    }
  }
  const baseUrl = filters.baseUrl ?? env.baseUrl;
  const target = planTarget({
    specFile,
    slug: basename(specFile, extname(specFile)),
    spec: filters.apiBaseUrl && spec.api ? { ...spec, api: { ...spec.api, baseUrl: filters.apiBaseUrl } } : spec,
    specSha256: sha256,
    environment,
    baseUrl,
    pages: spec.pages.map((page) => page.id).filter((id) => filters.pages.length === 0 || filters.pages.includes(id)),
    viewports,
  });
  if (!isOnDomain(baseUrl, target.domain)) {
    throw usageError(
      `--base-url ${baseUrl} leaves environment "${environment}"'s domain ${target.domain} (of ${specFile})`,
      `Use a base URL on ${target.domain} or one of its subdomains, or audit another environment with --env.`,
    );
  }
  return target;
}
