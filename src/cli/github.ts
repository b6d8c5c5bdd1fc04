import { appendFileSync, readFileSync } from "node:fs";
import { LineCounter, parseDocument } from "yaml";
import type { RunSummary } from "../results/summary.js";
import type { Finding } from "../findings/finding.js";
import {
  findingCommands,
  jobSummaryMarkdown,
  maskCommands,
  workflowCommand,
  type AnnotationPlace,
} from "../report/github.js";
import type { SpecError } from "../audit-spec/errors.js";
import { entryPathOf, positionOf } from "../audit-spec/locate.js";

/**
 * What a run in GitHub Actions adds to its own output: a job summary when `GITHUB_STEP_SUMMARY`
 * names a file, and annotations on the spec files when `GITHUB_ACTIONS` is `true`.
 */
function gitHubOutputs(env: NodeJS.ProcessEnv = process.env): { annotate: boolean; summaryFile: string | null } {
  return { annotate: env.GITHUB_ACTIONS === "true", summaryFile: env.GITHUB_STEP_SUMMARY || null };
}

/**
 * In GitHub Actions, hides the run's secrets (the API key, a closed site's credentials) in the
 * job's log before anything else is printed: the action masks the key it is told of, and the
 * credentials reach the step through its `env:` too.
 */
export function maskSecretsInLog(secrets: readonly string[]): void {
  if (!gitHubOutputs().annotate) return;
  for (const command of maskCommands(secrets)) process.stdout.write(`${command}\n`);
}

/** Annotates each spec error at its file, line and column. */
export function annotateSpecErrors(errors: readonly SpecError[]): void {
  if (!gitHubOutputs().annotate) return;
  for (const error of errors) {
    const message = error.path === "" ? error.message : `${error.path}: ${error.message}`;
    process.stdout.write(
      `${workflowCommand("error", message, { file: error.file, line: error.line, col: error.column, title: "setup-audit: invalid spec" })}\n`,
    );
  }
}

/**
 * Appends the job summary and annotates each failed or warning finding on its spec, at the page,
 * goal or experiment it is about. The summary's messages are scrubbed already (buildSummary).
 */
export function publishToGitHub(summary: RunSummary): void {
  const outputs = gitHubOutputs();
  if (outputs.summaryFile !== null) appendFileSync(outputs.summaryFile, jobSummaryMarkdown(summary));
  if (!outputs.annotate) return;
  for (const command of findingCommands(summary, specPlaces())) process.stdout.write(`${command}\n`);
}

/** Finds where in its spec a finding's page, goal or experiment is written; the file alone when it cannot tell. */
function specPlaces(): (finding: Finding) => AnnotationPlace {
  const specs = new Map<string, ReturnType<typeof readSpec>>();
  return (finding) => {
    if (!specs.has(finding.spec)) specs.set(finding.spec, readSpec(finding.spec));
    const spec = specs.get(finding.spec);
    const path = spec && entryPathOf(spec.data, finding);
    const position = spec && path && positionOf(spec.doc, spec.lineCounter, path);
    return position ? { file: finding.spec, line: position.line, col: position.column } : { file: finding.spec };
  };
}

function readSpec(file: string) {
  try {
    const lineCounter = new LineCounter();
    const doc = parseDocument(readFileSync(file, "utf8"), { lineCounter });
    return { doc, lineCounter, data: doc.toJS() as Record<string, unknown> | null };
  } catch {
    return undefined;
  }
}
