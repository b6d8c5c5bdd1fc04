import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { scratchDir } from "../support/scratch.js";
import { readSummary, runCli } from "./cli.js";

/**
 * The default nightly (`fail-on: new`) the morning after the site was down: the first run finds
 * every page answering 503, so the page's checks skip; the second finds the site back with another
 * environment's key installed. That failure was skipped, not passed, the night before: it is new,
 * and fails the run.
 */
const SPEC = `workspace: Acme Marketing
project: Demo shop
environments:
  staging: { key: prj_demo_wrong_key, baseUrl: "http://127.0.0.1:47412" }
sdk: { script: "**/sdk/v1/sdk.js", global: expsvc, track: track, identify: identify, collect: "**/v1/collect" }
viewports: [desktop]
pages:
  - { id: home, path: / }
`;

// A site down for maintenance: it answers, but every page is a 503.
const maintenance = createServer((_request, response) => {
  response.statusCode = 503;
  response.end("Down for maintenance");
});

test.beforeAll(() => new Promise<void>((resolve) => maintenance.listen(0, "127.0.0.1", resolve)));
test.afterAll(() => maintenance.close());

test("--fail-on new: a check skipped while the site was down and failing now is new, fails the run and is named", async () => {
  const dir = scratchDir("changes-after-skip");
  const spec = join(dir, "demo-shop.yaml");
  const out = join(dir, "reports");
  writeFileSync(spec, SPEC);
  const down = `http://127.0.0.1:${(maintenance.address() as AddressInfo).port}`;

  const first = await runCli(["run", spec, "--base-url", down, "--out", out, "--fail-on", "new"]);
  expect(first.code, first.stdout + first.stderr).toBe(1);
  const then = readSummary(out);
  expect(then.findings.find((finding) => finding.check === "sdk.key")?.status).toBe("skip");

  const second = await runCli(["run", spec, "--out", out, "--fail-on", "new"]);
  expect(second.code, second.stdout + second.stderr).toBe(1);
  const changes = readSummary(out).changes!;
  expect(changes.comparedWith.startedAt).toBe(then.startedAt);
  // Every other page check skipped then and passes now, which is no change; one viewport fails both times.
  expect(
    changes.new.map((finding) => `${finding.check} ${finding.page} ${finding.viewport} ${finding.status}`),
  ).toEqual(["sdk.key home desktop fail"]);
  expect(changes.resolved.map((finding) => finding.check)).toEqual(["page.load"]);
  expect(changes.persisting).toBe(1);
  // The console's last lines: the changes line, then what is new, named.
  const lines = second.stdout.split("\n");
  const changesAt = lines.findIndex((line) => /^Since .*: \d+ new, /.test(line));
  expect(changesAt, second.stdout).toBeGreaterThan(-1);
  expect(lines[changesAt + 1]).toBe("  New: sdk.key [home · desktop] (fail)");
  expect(second.stdout).toMatch(/--fail-on new: \d+ failed finding\(s\) new or worse than in the run compared with\./);
});
