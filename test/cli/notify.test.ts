import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { ciRunUrl, notifyWebhook, POST_POLICY, type PostPolicy } from "../../src/cli/notify.js";
import type { RunSummary } from "../../src/results/summary.js";
import type { Finding } from "../../src/findings/finding.js";
import type { WebhookMessage } from "../../src/report/webhook.js";
import { findingWith } from "../support/artifacts.js";

const failed: Finding = findingWith({
  status: "fail",
  page: "home",
  viewport: "mobile",
  message: "The page did not load.",
});
const summary = (changes: RunSummary["changes"]): RunSummary => ({
  version: 1,
  verdict: "fail",
  startedAt: "2026-11-28T03:00:00.000Z",
  durationMs: 1_000,
  calls: [],
  findings: [failed],
  changes,
  runs: [
    {
      spec: "audits/shop.yaml",
      project: "Shop",
      environment: "staging",
      verdict: "fail",
      collect: "send",
      checklist: {
        workspace: "pass",
        projectKeyOrDomain: "pass",
        goalEventMatch: "pass",
        mobileAndDesktop: "fail",
        noWarnings: "pass",
      },
    },
  ],
});
const FAST: PostPolicy = { ...POST_POLICY, timeoutMs: 2_000, waitMs: 10 };

/** A webhook that answers each post with the next of `statuses` (the last one repeated), recording the bodies. */
async function webhook(statuses: number[]): Promise<{ url: string; bodies: unknown[]; server: Server }> {
  const bodies: unknown[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      bodies.push(JSON.parse(body));
      response.statusCode = statuses[Math.min(bodies.length, statuses.length) - 1]!;
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T0/B0/hook-secret-token`,
    bodies,
    server,
  };
}

/** What notifyWebhook printed on stdout and stderr. */
async function printedBy(run: () => Promise<void>): Promise<{ stdout: string; stderr: string }> {
  const printed = { stdout: "", stderr: "" };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = ((text: string) => ((printed.stdout += text), true)) as typeof process.stdout.write;
  process.stderr.write = ((text: string) => ((printed.stderr += text), true)) as typeof process.stderr.write;
  try {
    await run();
  } finally {
    Object.assign(process.stdout, { write: writes.stdout });
    Object.assign(process.stderr, { write: writes.stderr });
  }
  return printed;
}

test("a failed run with nothing to compare with posts one message, with the CI run's link and without the webhook's URL", async () => {
  const hook = await webhook([200]);
  try {
    const env = {
      HOOK: hook.url,
      GITHUB_SERVER_URL: "https://github.com",
      GITHUB_REPOSITORY: "acme/shop",
      GITHUB_RUN_ID: "42",
    };
    const printed = await printedBy(() => notifyWebhook(summary(null), "HOOK", [], env, FAST));
    expect(hook.bodies).toHaveLength(1);
    const body = hook.bodies[0] as { text: string; blocks: unknown[] };
    expect(body.text).toContain("setup-audit FAIL");
    expect(body.text).toContain("https://github.com/acme/shop/actions/runs/42");
    expect(body.blocks.length).toBeGreaterThan(0);
    expect(JSON.stringify(body)).not.toContain("hook-secret-token");
    expect(printed.stdout).toBe("Posted the changes to the webhook in HOOK.\n");
    expect(printed.stderr).toBe("");
  } finally {
    hook.server.close();
  }
});

test("nothing changed: no post", async () => {
  const hook = await webhook([200]);
  try {
    const unchanged = summary({
      comparedWith: { startedAt: "2026-11-27T03:00:00.000Z", verdict: "fail" },
      new: [],
      worse: [],
      resolved: [],
      persisting: 1,
    });
    const printed = await printedBy(() => notifyWebhook(unchanged, "HOOK", [], { HOOK: hook.url }, FAST));
    expect(hook.bodies).toHaveLength(0);
    expect(printed).toEqual({ stdout: "", stderr: "" });
  } finally {
    hook.server.close();
  }
});

test("a server error is retried up to the bound; a refusal is not; either way a warning line that never shows the URL", async () => {
  const flaky = await webhook([503, 200]);
  const down = await webhook([500]);
  const refusing = await webhook([404]);
  try {
    expect((await printedBy(() => notifyWebhook(summary(null), "HOOK", [], { HOOK: flaky.url }, FAST))).stderr).toBe(
      "",
    );
    expect(flaky.bodies).toHaveLength(2);
    const downPrinted = await printedBy(() => notifyWebhook(summary(null), "HOOK", [], { HOOK: down.url }, FAST));
    expect(down.bodies).toHaveLength(3);
    expect(downPrinted.stderr).toBe(
      "setup-audit: warning: the changes were not posted to the webhook in HOOK: it answered HTTP 500 (3 attempts).\n",
    );
    const refused = await printedBy(() => notifyWebhook(summary(null), "HOOK", [], { HOOK: refusing.url }, FAST));
    expect(refusing.bodies).toHaveLength(1);
    expect(refused.stderr).toBe(
      "setup-audit: warning: the changes were not posted to the webhook in HOOK: it answered HTTP 404 (1 attempt).\n",
    );
  } finally {
    for (const hook of [flaky, down, refusing]) hook.server.close();
  }
  const closed = down.url;
  const unreachable = await printedBy(() => notifyWebhook(summary(null), "HOOK", [], { HOOK: closed }, FAST));
  expect(unreachable.stderr).toMatch(
    /^setup-audit: warning: the changes were not posted to the webhook in HOOK: \w+ \(3 attempts\)\.\n$/,
  );
  expect(unreachable.stderr).not.toContain("hook-secret-token");
});

test("an unset or non-URL variable is a warning line, not a failure", async () => {
  expect((await printedBy(() => notifyWebhook(summary(null), "HOOK", [], {}, FAST))).stderr).toBe(
    "setup-audit: warning: the changes were not posted to the webhook in HOOK: HOOK is not set.\n",
  );
  expect(
    (await printedBy(() => notifyWebhook(summary(null), "HOOK", [], { HOOK: "hooks.slack.com/x" }, FAST))).stderr,
  ).toBe(
    "setup-audit: warning: the changes were not posted to the webhook in HOOK: HOOK does not hold an http(s) URL.\n",
  );
});

test("the CI run's page comes from GitHub's variables, all three or none", () => {
  expect(
    ciRunUrl({ GITHUB_SERVER_URL: "https://github.com", GITHUB_REPOSITORY: "acme/shop", GITHUB_RUN_ID: "7" }),
  ).toBe("https://github.com/acme/shop/actions/runs/7");
  expect(ciRunUrl({ GITHUB_SERVER_URL: "https://github.com", GITHUB_REPOSITORY: "acme/shop" })).toBeNull();
});

test("what the page controls reaches the chat inert: no mention, link, image or code span of its own in the text or the blocks, yet readable", async () => {
  const payloads =
    "<!channel> <!here> <@U024BE7LH> @everyone @channel <https://evil.example/reset|Reset your password> " +
    "[click](https://evil.example/a) ![](https://evil.example/pixel.png) `rm -rf` https://evil.example/bare www.evil.example &amp;";
  const event: Finding = {
    ...failed,
    check: "events.expected",
    goal: `Signup ${payloads}`,
    message: `Event "${payloads}" fired, and\nthe page said ${payloads}`,
  };
  const changed = { ...event, environment: "staging" };
  const hook = await webhook([200]);
  try {
    const posted = summary({
      comparedWith: { startedAt: "2026-11-27T03:00:00.000Z", verdict: "pass" },
      new: [changed],
      worse: [],
      resolved: [],
      persisting: 0,
      persistingWarnings: 0,
    });
    await printedBy(() => notifyWebhook({ ...posted, findings: [event] }, "HOOK", [], { HOOK: hook.url }, FAST));
    const body = hook.bodies[0] as WebhookMessage;
    const rendered = [
      body.text,
      ...body.blocks.flatMap((block) => [block.text?.text ?? "", ...(block.elements ?? []).map((part) => part.text)]),
    ];
    for (const text of rendered) {
      // Slack's <…> links and <!…>/<@…> mentions, and Markdown's autolinks, all need a "<".
      expect(text).not.toContain("<");
      expect(text).not.toMatch(/\]\(|!\[/);
      expect(text).not.toMatch(/@(channel|here|everyone|all)\b/);
      expect(text).not.toMatch(/https?:\/\/|www\./);
      // The message's own code spans name the check; the page opens none.
      expect(text.replace(/`events\.expected`/g, "")).not.toContain("`");
    }
    expect(body.text).toContain("setup-audit FAIL");
    expect(body.text.split("\n")[1]).toMatch(/^New: `events\.expected` \[home · Signup /);
    // What the page said still reads as it was, on one line each time.
    const readable = body.text
      .replace(/\u2060/g, "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
    expect(readable).toContain(`Event "${payloads.replace(/`/g, "ˋ")}" fired, and the page said`);
    expect(readable).toContain(`Signup ${payloads.replace(/`/g, "ˋ")}`);
  } finally {
    hook.server.close();
  }
});

/**
 * A webhook that answers `status` at once, then drips its body a byte at a time and never ends it
 * (with null, it never answers at all): only the poster hanging up ends a post. The attempts it
 * gets are bounded by `policy`'s deadline, which the webhook itself reaches once it has shown what
 * it does (three drips, or the whole request read unanswered), so that no clock decides the order.
 */
async function drippingWebhook(status: number | null) {
  const posts: { hungUp: boolean }[] = [];
  const deadlines: AbortController[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const post = { hungUp: false };
      posts.push(post);
      // A poster that asked for no deadline has none to reach.
      const deadline = deadlines[posts.length - 1];
      if (status === null) deadline?.abort();
      else response.writeHead(status, { "content-type": "text/plain" });
      let drips = 0;
      const drip = setInterval(() => {
        if (status === null) return;
        response.write(".");
        if (++drips === 3) deadline?.abort();
      }, 20);
      response.on("close", () => {
        clearInterval(drip);
        post.hungUp = !response.writableFinished;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const policy: PostPolicy = {
    ...FAST,
    timeoutMs: 300,
    deadline: () => {
      deadlines.push(new AbortController());
      return deadlines.at(-1)!.signal;
    },
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, posts, server, policy };
}

test("each attempt is bounded as a whole: a webhook that drips its answer is hung up on, once per attempt", async () => {
  expect(POST_POLICY.timeoutMs).toBe(10_000);
  const taking = await drippingWebhook(200);
  const failing = await drippingWebhook(503);
  const silent = await drippingWebhook(null);
  const notified = (hook: typeof taking) =>
    printedBy(() => notifyWebhook(summary(null), "HOOK", [], { HOOK: hook.url }, hook.policy));
  try {
    // Its status said it took the message: posted, not posted again.
    expect(await notified(taking)).toEqual({ stdout: "Posted the changes to the webhook in HOOK.\n", stderr: "" });
    expect((await notified(failing)).stderr).toBe(
      "setup-audit: warning: the changes were not posted to the webhook in HOOK: it answered HTTP 503 (3 attempts).\n",
    );
    expect((await notified(silent)).stderr).toBe(
      "setup-audit: warning: the changes were not posted to the webhook in HOOK: it did not answer within 0.3 s (3 attempts).\n",
    );
    const hungUp = (posts: { hungUp: boolean }[]) => posts.map((post) => post.hungUp);
    await expect.poll(() => hungUp(taking.posts)).toEqual([true]);
    await expect.poll(() => hungUp(failing.posts)).toEqual([true, true, true]);
    await expect.poll(() => hungUp(silent.posts)).toEqual([true, true, true]);
  } finally {
    for (const hook of [taking, failing, silent]) {
      hook.server.closeAllConnections();
      hook.server.close();
    }
  }
});
