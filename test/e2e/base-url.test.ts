import { writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { findingOf, readSummary, runCli } from "./cli.js";

/**
 * `--base-url` on a subdomain of an environment without `domain:`: the environment's domain is
 * still its own base URL's host, for the gatherer (what is the site's own: the traffic header
 * goes there, a canary value may) as for page.domain. The site here opens on www.localhost and
 * sends the journey's canary value to its backend on localhost, the environment's host.
 */

/** Chromium resolves every *.localhost to the loopback address itself; the CLI's Node, which checks that the base URL answers, is told to here. */
const LOCALHOST_SUBDOMAINS = `--import=data:text/javascript,${encodeURIComponent(
  'import dns from "node:dns"; const lookup = dns.lookup; dns.lookup = function (host, ...rest) { return lookup.call(this, String(host).endsWith(".localhost") ? "localhost" : host, ...rest); };',
)}`;

let server: Server;
let port: number;
/** The headers of each request the backend received, by path. */
const received = new Map<string, IncomingHttpHeaders>();

test.beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    received.set(url.pathname, request.headers);
    if (url.pathname !== "/") return void response.writeHead(204).end();
    response.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>Shop</title>
<input id="email"><button id="save">Save</button>
<script>
  document.querySelector("#save").addEventListener("click", () => {
    fetch("http://localhost:${port}/save?email=" + encodeURIComponent(document.querySelector("#email").value), { mode: "no-cors" });
  });
</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

test("--base-url on a subdomain: the gatherer's own site and page.domain are both the environment's domain", async ({}, testInfo) => {
  const spec = testInfo.outputPath("shop.yaml");
  writeFileSync(
    spec,
    [
      "workspace: Acme Marketing",
      "project: Subdomain shop",
      "environments:",
      `  staging: { key: prj_subdomain, baseUrl: "http://localhost:${port}" }`,
      "sdk: { script: '**/sdk.js', global: expsvc, track: track, identify: identify, collect: '**/collect', deliveryTimeoutMs: 1000 }",
      "viewports: [desktop]",
      "pages:",
      "  - id: home",
      "    path: /",
      "    steps:",
      '      - fill: { selector: "#email", value: "qa@example.test", canary: true }',
      '      - click: "#save"',
      "",
    ].join("\n"),
  );
  const out = testInfo.outputPath("out");
  const run = await runCli(["run", spec, "--base-url", `http://www.localhost:${port}`, "--out", out], {
    NODE_OPTIONS: LOCALHOST_SUBDOMAINS,
  });
  expect(run.stderr).toBe("");
  const summary = readSummary(out);
  const where = { page: "home", viewport: "desktop" };
  expect(findingOf(summary, "page.load", where)).toMatchObject({
    status: "pass",
    message: expect.stringContaining(`http://www.localhost:${port}/`),
  });
  expect(findingOf(summary, "page.domain", where)).toMatchObject({ status: "pass", evidence: { domain: "localhost" } });
  // The canary value went to the site's own backend, which a signup form is meant to do.
  expect(findingOf(summary, "identify.pii", where)).toMatchObject({
    status: "pass",
    message: "The canary value of step 1 left in no request.",
  });
  expect(received.get("/save")?.["x-setup-audit"]).toBeDefined();
});
