import { randomBytes } from "node:crypto";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { JudgedCall, JudgedPage } from "../artifacts/delivery.js";
import type { ApiArtifacts, CollectRequest } from "../artifacts/types.js";
import type { CallBaseline } from "../artifacts/baseline.js";
import { CHECKS } from "../checks/index.js";
import { detectPersonalValue, redactPersonalData } from "../privacy/personal-data.js";
import { type AuditTarget, type RecordedTarget, recordedTarget } from "../schedule/plan.js";
import { planTarget } from "../schedule/target.js";
import { scrubbedFindings, type TargetResult } from "../results/run-result.js";
import { loadBaselines, type BaselineChoice } from "./baseline.js";
import { usageError } from "../runner/errors.js";
import { localPictureBrowser } from "./pictures.js";
import { judgeTarget } from "./judge.js";
import { publishResults, type PublishOptions } from "./publish.js";
import { prepareOutDir, SHARD_FILE } from "./out-dir.js";
import { loadValidSpecs } from "./specs.js";
import { hideSecretsDeep, redactUrl } from "../privacy/redact.js";
import { runSecretLists } from "./run-secrets.js";

/**
 * Sharding: each `run --shard I/N` leaves its judged pages in `shard-results.json`, and
 * `merge` turns N of them into one summary.json, one Allure report and one exit code. Page
 * checks and calls' deliveries stand as the shard judged them; checks that need the whole run
 * (goals, viewports, the API, the spec) run again on every shard's pages together.
 */

/** The shard file's shape: raised whenever the page artifacts or results it carries change. */
export const SHARD_FILE_VERSION = 10;

/** What one shard leaves for `merge`. */
interface ShardResults {
  version: typeof SHARD_FILE_VERSION;
  shard: string;
  startedAt: string;
  targets: RecordedTarget[];
  results: TargetResult[];
}

/** Writes a shard's results beside its summary.json, with every personal value masked, the messages scrubbed as summary.json's, and no secret of the run anywhere. */
export function writeShardResults(
  outDir: string,
  shard: string,
  startedAt: Date,
  targets: readonly AuditTarget[],
  results: readonly TargetResult[],
  secrets: readonly string[],
): void {
  const shareable: ShardResults = {
    version: SHARD_FILE_VERSION,
    shard,
    startedAt: startedAt.toISOString(),
    targets: targets.map(recordedTarget),
    results: results.map((result, index) => {
      const allow = targets[index]?.spec.identify.allowPersonalData ?? [];
      const pages = result.pages.map((page) => hideSecretsDeep(shareablePage(page, allow), secrets));
      return { ...result, findings: scrubbedFindings(result.findings, secrets), pages, api: shareableApi(result.api) };
    }),
  };
  writeFileSync(join(outDir, SHARD_FILE), JSON.stringify(shareable));
}

/** `setup-audit merge DIR… --out DIR`: one result from N shards' output folders. */
export async function mergeShards(
  dirs: readonly string[],
  options: Omit<PublishOptions, "startedAt" | "toGitHub" | "secrets"> & { baseline: BaselineChoice },
): Promise<number> {
  if (dirs.length === 0)
    throw usageError(
      "merge needs the output folders of the shards",
      "Run `setup-audit merge reports-1 reports-2 --out reports`.",
    );
  const shards = dirs.map(readShard);
  const first = shards[0]!;
  const identity = (targets: readonly RecordedTarget[]) =>
    JSON.stringify(targets.map(({ specFile, specSha256, environment }) => [specFile, specSha256, environment]));
  const stranger = shards.find((shard) => identity(shard.targets) !== identity(first.targets));
  if (stranger) {
    throw usageError(
      `Shard ${stranger.shard} audited other specs, other versions of them or other environments than shard ${first.shard}`,
      "Merge only the shards of one run (same spec files, same --env).",
    );
  }
  // The checks that need the whole run read the spec again: it must be the one the shards audited.
  const specs = new Map(
    (await loadValidSpecs(first.targets.map((target) => target.specFile))).map((loaded) => [loaded.file, loaded]),
  );
  const changed = first.targets.find((target) => specs.get(target.specFile)!.sha256 !== target.specSha256);
  if (changed) {
    throw usageError(
      `${changed.specFile} changed since the shards audited it`,
      "Merge with the spec files the shards ran with (the same commit), or run the shards again.",
    );
  }
  // Planned again as the shards planned them, from the same spec: the same units, with their inputs.
  const targets = first.targets.map(({ units: _units, domain: _domain, ...chosen }) =>
    planTarget({ ...chosen, spec: specs.get(chosen.specFile)!.spec }),
  );

  const outDir = resolve(options.out);
  const staleOutputsDeleted = prepareOutDir(outDir);
  for (const dir of dirs) {
    if (existsSync(join(dir, "screenshots")))
      cpSync(join(dir, "screenshots"), join(outDir, "screenshots"), { recursive: true });
  }
  const baselines = options.baseline ? loadBaselines(targets, options.baseline.file) : [];
  const results = targets.map((target, index) =>
    mergeTarget(
      target,
      shards.map((shard) => shard.results[index]!),
      baselines[index],
    ),
  );
  const startedAt = new Date(Math.min(...shards.map((shard) => Date.parse(shard.startedAt))));
  process.stdout.write(`Merged ${shards.length} shard(s): ${shards.map((shard) => shard.shard).join(", ")}.\n`);
  try {
    const plan = { runId: randomBytes(3).toString("hex"), outDir, targets, ...localPictureBrowser() };
    // The shards' logins went with their work folders, and their results are scrubbed of what they yielded.
    const { secrets } = runSecretLists(targets, process.env, null);
    return await publishResults(plan, results, { ...options, startedAt, toGitHub: true, secrets });
  } finally {
    await staleOutputsDeleted;
  }
}

function readShard(dir: string): ShardResults {
  const file = join(dir, SHARD_FILE);
  if (!existsSync(file))
    throw usageError(
      `${dir} holds no ${SHARD_FILE}`,
      `Name the --out folders of \`setup-audit run --shard I/N\` runs.`,
    );
  const shard = JSON.parse(readFileSync(file, "utf8")) as ShardResults;
  if (shard.version !== SHARD_FILE_VERSION)
    throw usageError(
      `${file} was written by another version of setup-audit`,
      "Run the shards and the merge with the same version.",
    );
  return shard;
}

function mergeTarget(
  target: AuditTarget,
  parts: readonly TargetResult[],
  baseline: CallBaseline | undefined,
): TargetResult {
  // Each shard reconciled its calls with the events the service listed to that shard.
  const pages = parts.flatMap((part) => part.pages);
  const api = parts.find((part) => part.api !== null)?.api ?? null;
  const pageChecks = new Set(CHECKS.filter((check) => check.scope === "page").map((check) => check.id));
  const pageFindings = parts.flatMap((part) => part.findings.filter((finding) => pageChecks.has(finding.check)));
  const merged = judgeTarget(
    target,
    pages,
    api,
    baseline,
    CHECKS.filter((check) => check.scope === "run"),
  );
  const order = new Map(CHECKS.map((check, index) => [check.id, index]));
  const findings = [...pageFindings, ...merged.findings].sort((a, b) => order.get(a.check)! - order.get(b.check)!);
  return { ...merged, findings };
}

/**
 * A page's artifacts as a shard file keeps them: personal values masked in the calls, and neither
 * an identify's user id nor any payload's content. Nothing after the shard needs them: each call
 * keeps the delivery the shard judged, and the report counts a request's events.
 */
function shareablePage(page: JudgedPage, allow: readonly string[]): JudgedPage {
  const maskString = (value: string | null) => (value === null ? null : (detectPersonalValue(value)?.masked ?? value));
  const shareableCalls = (calls: readonly JudgedCall[]) =>
    calls.map(
      (call): JudgedCall => ({
        ...call,
        name: call.kind === "identify" ? null : maskString(call.name),
        properties: redactPersonalData(call.properties, allow),
      }),
    );
  const shareableCollect = (collect: readonly CollectRequest[]) =>
    collect.map(
      (request): CollectRequest => ({ ...request, events: request.events.map(() => ({ raw: null, strings: [] })) }),
    );
  const reload = page.reload
    ? { ...page.reload, calls: shareableCalls(page.reload.calls), collect: shareableCollect(page.reload.collect) }
    : page.reload;
  const consent = page.consent
    ? {
        ...page.consent,
        requestsBefore: page.consent.requestsBefore.map((request) => ({ ...request, url: redactUrl(request.url) })),
      }
    : page.consent;
  return {
    ...page,
    calls: shareableCalls(page.calls),
    collect: shareableCollect(page.collect),
    reload,
    ...(consent ? { consent } : {}),
  };
}

/** The API's answers without the recent events' content (user ids, attributes): the shard already judged the deliveries they vouch for. */
function shareableApi(api: ApiArtifacts | null): ApiArtifacts | null {
  if (!api?.recentEvents?.data) return api;
  return { ...api, recentEvents: { ...api.recentEvents, data: [] } };
}
