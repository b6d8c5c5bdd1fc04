import { request } from "undici";
import type { RunSummary } from "../results/summary.js";
import { deservesMessage, webhookMessage } from "../report/webhook.js";
import { isRetryableStatus } from "../api/retry.js";

/** How the webhook is posted to: a few attempts, each bounded, a short wait between them. */
export interface PostPolicy {
  attempts: number;
  /** How long one attempt may take as a whole: connecting, the answer's headers and its body. */
  timeoutMs: number;
  /** The signal that ends an attempt, `timeoutMs` after it starts (a test ends it when its webhook has shown what it does). */
  deadline: (timeoutMs: number) => AbortSignal;
  waitMs: number;
}

/** Three attempts, each bounded to 10 s as a whole, 1 s then 2 s apart. */
export const POST_POLICY: PostPolicy = {
  attempts: 3,
  timeoutMs: 10_000,
  deadline: (timeoutMs) => AbortSignal.timeout(timeoutMs),
  waitMs: 1_000,
};

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
    const outcome = await postOnce(url, body, policy);
    if (outcome === null) return null;
    why = `${outcome.why} (${tries})`;
    if (!outcome.retry) return why;
  }
  return why;
}

/**
 * One post, bounded as a whole (connecting, the answer's headers and its body) to `timeoutMs`: a
 * webhook that drips its answer holds the run no longer than that. The status says whether the
 * webhook took the message; the body says nothing more, so it is read (64 KiB at most) only while
 * the bound lasts, and a 2xx whose body is cut short still counts as posted (posting again would
 * say it twice).
 */
async function postOnce(
  url: string,
  body: string,
  { timeoutMs, deadline }: PostPolicy,
): Promise<{ why: string; retry: boolean } | null> {
  const signal = deadline(timeoutMs);
  try {
    const response = await request(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      signal,
    });
    await response.body.dump({ limit: 64 * 1024, signal }).catch(() => undefined);
    if (response.statusCode < 300) return null;
    return { why: `it answered HTTP ${response.statusCode}`, retry: isRetryableStatus(response.statusCode) };
  } catch (error) {
    if (signal.aborted) return { why: `it did not answer within ${timeoutMs / 1000} s`, retry: true };
    // The error's text may hold the URL, a secret: only its code is shown.
    return { why: (error as { code?: string }).code ?? "the request failed", retry: true };
  }
}

/** The page of this CI run, where its report is: GitHub Actions' run page when its variables say where. */
export function ciRunUrl(env: NodeJS.ProcessEnv): string | null {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId } = env;
  return server && repository && runId ? `${server}/${repository}/actions/runs/${runId}` : null;
}
