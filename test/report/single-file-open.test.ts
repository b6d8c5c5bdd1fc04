import { readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "@playwright/test";
import { buildReport } from "../../src/report/html.js";
import { writeRun } from "../support/allure-results.js";
import { test } from "../support/browser.js";
import { expectAllureShows } from "../support/offline.js";

/**
 * The single file draws whatever the order in which the browser parses it. Allure's app may start
 * before the browser has read the data embedded after it: a slow machine, a busy one, or a file
 * read in pieces. Here the file is served in two parts, its data held back until the app has
 * drawn its loader; the app must then wait for the data, not ask for files beside the page.
 */

// Longer than expectAllureShows' own four minutes, with the build: a blank app fails with what it showed.
test.describe.configure({ timeout: 360_000 });

test("the single file's app waits for its embedded data when it starts before the data is read", async ({
  browser,
}, testInfo) => {
  const out = testInfo.outputPath("out");
  writeRun(out, "failed");
  const { singleFile } = await buildReport(out, { singleFile: true });
  const html = readFileSync(singleFile!, "utf8");
  const dataAt = html.search(/<script async>\s*window\.allureReportDataReady = false;/);
  expect(dataAt).toBeGreaterThan(0);

  const asked: string[] = [];
  let heldBack: ServerResponse | undefined;
  const server = createServer((request, response) => {
    if (request.url !== "/") {
      asked.push(request.url ?? "");
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.write(html.slice(0, dataAt));
    heldBack = response;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console error: ${message.text()}`);
    });
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { waitUntil: "commit" });
    // The app has started, and drawn its loader, before a byte of its data came.
    await page.locator("#app").getByTestId("loader").waitFor({ state: "attached" });
    heldBack!.end(html.slice(dataAt));
    await expectAllureShows({ page, problems }, "Acme Marketing");
    expect(asked).toEqual([]);
  } finally {
    await context.close();
    server.close();
  }
});
