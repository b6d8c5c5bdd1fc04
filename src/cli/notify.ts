import { request } from "undici";
import type { RunSummary } from "../results/summary.js";
import { deservesMessage, webhookMessage } from "../report/webhook.js";
import { isRetryableStatus } from "../api/retry.js";

/** How the webhook is posted to: a few attempts, each bounded, a short wait between them. */
export interface PostPolicy {
  attempts: number;
  timeoutMs: number;
  waitMs: number;
}

const POST_POLICY: PostPolicy = { attempts: 3, timeoutMs: 10_000, waitMs: 1_000 };

/**
 * `--notify-env VAR`: posts the run's message to the webhook URL in VAR when the run deserves one
 * (docs/ci.md, Notifications). Never fails the audit: what went wrong is one warning line on stderr,
 * which names the variable and never its value.
 */
export async function notifyWebhook(
  summary: RunSummary,
  variable: string,
  secrets: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  policy: PostPolicy = POST_POLICY,
): Promise<void> {
  if (!deservesMessage(summary)) return;
  const url = env[variable] ?? "";
  const warn = (why: string) =>
    process.stderr.write(`setup-audit: warning: the changes were not posted to the webhook in ${variable}: ${why}.\n`);
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    warn(url === "" ? `${variable} is not set` : `${variable} does not hold an http(s) URL`);
    return;
  }
  const message = webhookMessage(summary, { reportUrl: ciRunUrl(env), secrets: [...secrets, url] });
  const outcome = await postWithRetries(url, JSON.stringify(message), policy);
  if (outcome === null) process.stdout.write(`Posted the changes to the webhook in ${variable}.\n`);
  else warn(outcome);
}

/** Posts `body` as JSON; null when the webhook took it, else why not after the last attempt. */
async function postWithRetries(url: string, body: string, policy: PostPolicy): Promise<string | null> {
  let why = "";
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, policy.waitMs * 2 ** (attempt - 2)));
    const tries = `${attempt} attempt${attempt === 1 ? "" : "s"}`;
    try {
      const response = await request(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        headersTimeout: policy.timeoutMs,
        bodyTimeout: policy.timeoutMs,
      });
      await response.body.dump();
      if (response.statusCode < 300) return null;
      why = `it answered HTTP ${response.statusCode} (${tries})`;
      if (!isRetryableStatus(response.statusCode)) return why;
    } catch (error) {
      // The error's text may hold the URL, a secret: only its code is shown.
      why = `${(error as { code?: string }).code ?? "the request failed"} (${tries})`;
    }
  }
  return why;
}

/** The page of this CI run, where its report is: GitHub Actions' run page when its variables say where. */
export function ciRunUrl(env: NodeJS.ProcessEnv): string | null {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId } = env;
  return server && repository && runId ? `${server}/${repository}/actions/runs/${runId}` : null;
}
