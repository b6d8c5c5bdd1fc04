import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { knownViewports } from "../../src/browser/viewports.js";
import { formatSpecError, parseSpec } from "../../src/audit-spec/load.js";

/** The spec's `api` section: the retry overrides and the path placeholders. */

const demo = readFileSync(new URL("../../audits/demo-shop.yaml", import.meta.url), "utf8");

function withApiLines(lines: string): string {
  return demo.replace(
    "  recentEventsPath: /v1/projects/{project}/events\n",
    `  recentEventsPath: /v1/projects/{project}/events\n${lines}`,
  );
}

test("the demo spec's api section is valid and needs no retry section", () => {
  const result = parseSpec(demo, "demo.yaml", knownViewports());
  expect(result.ok && result.spec.api).toEqual({
    baseUrl: "http://127.0.0.1:47411",
    keyEnv: "SERVICE_API_KEY",
    goalsPath: "/v1/projects/{project}/goals",
    recentEventsPath: "/v1/projects/{project}/events",
  });
});

test("retry overrides are read as given", () => {
  const result = parseSpec(
    withApiLines("  retry: { attempts: 2, totalTimeoutMs: 5000 }\n"),
    "demo.yaml",
    knownViewports(),
  );
  expect(result.ok && result.spec.api?.retry).toEqual({ attempts: 2, totalTimeoutMs: 5000 });
});

test("a retry override out of bounds, or misspelled, is a spec error", () => {
  const result = parseSpec(withApiLines("  retry: { attempts: 0, baseDelay: 100 }\n"), "demo.yaml", knownViewports());
  expect(result.ok).toBe(false);
  const errors = result.ok ? [] : result.errors.map(formatSpecError);
  expect(errors).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^demo\.yaml:\d+:\d+ api\.retry\.attempts: must be at least 1$/),
      expect.stringContaining('unknown key "baseDelay" — did you mean "baseDelayMs"?'),
    ]),
  );
});

test("a path may use only {project} and {projectId}", () => {
  const result = parseSpec(
    demo.replace("/v1/projects/{project}/goals", "/v1/projects/{projectKey}/goals"),
    "demo.yaml",
    knownViewports(),
  );
  expect(result.ok ? [] : result.errors.map(formatSpecError)).toEqual([
    expect.stringMatching(
      /^demo\.yaml:\d+:\d+ api\.goalsPath: may only use the placeholders \{project\} \(the environment's key\) and \{projectId\} \(the listed project's id\)$/,
    ),
  ]);
});
