import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright";

/** A file opened in a context where every request that is not file:, data: or blob: is blocked; each request is recorded, and each blocked one (websockets too) counted as outside. */
export interface OfflinePage {
  page: Page;
  requests: string[];
  outside: string[];
  /** What the page reported going wrong: its console's errors and warnings, its uncaught exceptions. */
  problems: string[];
}

/** Opens `file` (a single-file report) offline in `context`. */
export async function openOffline(context: BrowserContext, file: string): Promise<OfflinePage> {
  const requests: string[] = [];
  const outside: string[] = [];
  const isLocal = (url: string) => /^(file|data|blob):/.test(url);
  context.on("request", (request) => {
    requests.push(request.url());
    if (!isLocal(request.url())) outside.push(request.url());
  });
  await context.route("**/*", (route) => (isLocal(route.request().url()) ? route.continue() : route.abort()));
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("websocket", (socket) => outside.push(socket.url()));
  page.on("console", (message) => {
    if (["error", "warning"].includes(message.type())) problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  await page.goto(pathToFileURL(file).href);
  return { page, requests, outside, problems };
}

/**
 * How long the Allure app may take to draw what its file already holds: 30 ms here when idle, a
 * few seconds beside a suite; four minutes is a page that will not draw, whose state is then worth
 * more than a longer wait.
 */
const ALLURE_DRAWS_WITHIN_MS = 240_000;

/**
 * Waits until the Allure app of an opened report shows `text`. When it does not, fails with what
 * the app had: whether its embedded data was declared ready, how many files it held, what the page
 * reported going wrong, and what it shows.
 */
export async function expectAllureShows(opened: Pick<OfflinePage, "page" | "problems">, text: string): Promise<void> {
  const { page, problems } = opened;
  const shown = await page
    .locator("#app")
    .getByText(text)
    .first()
    .waitFor({ timeout: ALLURE_DRAWS_WITHIN_MS })
    .then(
      () => true,
      () => false,
    );
  if (shown) return;
  const data = await page.evaluate(() => {
    const report = window as unknown as { allureReportDataReady?: boolean; allureReportData?: object };
    return { ready: report.allureReportDataReady, files: Object.keys(report.allureReportData ?? {}).length };
  });
  const app = await page.locator("#app").ariaSnapshot();
  throw new Error(
    `The Allure app did not show "${text}" within ${ALLURE_DRAWS_WITHIN_MS / 1000} s: data ready ${data.ready}, ${data.files} embedded files, ${problems.length} problem(s) reported${problems.map((problem) => `\n  ${problem}`).join("")}\nIt shows:\n${app}`,
  );
}
