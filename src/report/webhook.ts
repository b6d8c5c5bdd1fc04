import { scrubText } from "../privacy/redact.js";
import { changesLine, hasChanges } from "../results/changes.js";
import type { ChangedFinding, RunSummary } from "../results/summary.js";
import type { Finding } from "../findings/finding.js";
import { changedFindingLines } from "./changes-text.js";
import { inertChatText } from "./chat-text.js";
import { findingPlace, verdictLine } from "./console.js";

/**
 * The message `--notify-env` posts: Slack's incoming-webhook JSON (`text` for notifications and
 * clients without blocks, `blocks` for the rest), which Mattermost, Rocket.Chat, Discord's
 * `/slack` endpoint and others accept too. It starts with the changes line and what changed, then
 * the verdict, the first findings to act on and the report's link.
 */

/** Findings listed in the message at most; the report has the rest. */
const LISTED_FINDINGS = 5;

/** An incoming-webhook message. */
export interface WebhookMessage {
  text: string;
  blocks: {
    type: "section" | "context";
    text?: { type: "mrkdwn"; text: string };
    elements?: { type: "mrkdwn"; text: string }[];
  }[];
  /** Slack shows no preview of the links the message holds: a preview loads what the link points at. */
  unfurl_links: false;
  unfurl_media: false;
}

/** Whether a run is worth a message: something changed, or, with nothing to compare with, it failed. */
export function deservesMessage(summary: Pick<RunSummary, "verdict" | "changes">): boolean {
  return summary.changes === null ? summary.verdict === "fail" : hasChanges(summary.changes);
}

/**
 * The message for a run. What it quotes from the run (messages, names, the verdict's reasons) is
 * scrubbed of e-mail addresses, user ids and the run's secrets, as every output is, then made
 * inert for the chat (chat-text.ts); the message's own markup (the checks' code spans, the report's
 * link) goes around it afterwards. `text` and `blocks` say the same, so each chat renders it alike.
 */
export function webhookMessage(
  summary: RunSummary,
  options: { reportUrl: string | null; secrets: readonly string[] },
): WebhookMessage {
  const quoted = (text: string) => inertChatText(scrubText(text, options.secrets));
  const checkAt = (finding: Finding | ChangedFinding) => {
    const where = findingPlace(finding);
    return `\`${finding.check}\`${where === "" ? "" : ` [${quoted(where)}]`}`;
  };
  const head = [
    ...(summary.changes === null
      ? []
      : [changesLine(summary.changes), ...changedFindingLines(summary.changes, checkAt)]),
    `setup-audit ${quoted(verdictLine(summary))}`,
  ];
  const problems = toActOn(summary);
  const listed = problems
    .slice(0, LISTED_FINDINGS)
    .map((finding) => `• ${finding.status.toUpperCase()} ${checkAt(finding)}: ${quoted(finding.message)}`);
  if (problems.length > LISTED_FINDINGS) listed.push(`…and ${problems.length - LISTED_FINDINGS} more in the report.`);
  const link = options.reportUrl === null ? null : scrubText(options.reportUrl, options.secrets);
  const blocks: WebhookMessage["blocks"] = [{ type: "section", text: { type: "mrkdwn", text: head.join("\n") } }];
  if (listed.length > 0) blocks.push({ type: "section", text: { type: "mrkdwn", text: listed.join("\n") } });
  if (link !== null) blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: `<${link}|The report>` }] });
  return {
    text: [...head, ...listed, ...(link === null ? [] : [link])].join("\n"),
    blocks,
    unfurl_links: false,
    unfurl_media: false,
  };
}

/** The new and worse findings first, then every other failed or warning one, failures before warnings. */
function toActOn(summary: RunSummary): Finding[] {
  const keyOf = (
    finding: Pick<Finding, "check" | "spec" | "page" | "viewport" | "goal" | "experiment" | "variation">,
  ) =>
    JSON.stringify([
      finding.check,
      finding.spec,
      finding.page,
      finding.viewport,
      finding.goal,
      finding.experiment,
      finding.variation,
    ]);
  const changed = new Set([...(summary.changes?.new ?? []), ...(summary.changes?.worse ?? [])].map(keyOf));
  const problems = [
    ...summary.findings.filter((finding) => finding.status === "fail"),
    ...summary.findings.filter((finding) => finding.status === "warn"),
  ];
  return [
    ...problems.filter((finding) => changed.has(keyOf(finding))),
    ...problems.filter((finding) => !changed.has(keyOf(finding))),
  ];
}
