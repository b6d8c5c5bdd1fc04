import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright";

/** A file opened in a context where every request that is not file:, data: or blob: is blocked; each request is recorded, and each blocked one (websockets too) counted as outside. */
export interface OfflinePage {
  page: Page;
  requests: string[];
  outside: string[];
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
  page.on("websocket", (socket) => outside.push(socket.url()));
  await page.goto(pathToFileURL(file).href);
  return { page, requests, outside };
}
