import { createServer, type IncomingHttpHeaders } from "node:http";
import { expect } from "@playwright/test";
import { auditContextOptions, resolveTraffic } from "../../src/gather/traffic.js";
import { toolVersion } from "../../src/package/version.js";
import { specWith } from "../support/artifacts.js";
import { test } from "../support/browser.js";

/**
 * The audit's browser tells one story about itself, as a visitor's does: launched and given its
 * contexts as the audit does, on both viewports, its user agent names the browser's own major
 * version, as `navigator.userAgentData` and the Sec-CH-UA headers do, and the same platform and
 * mobility; no "Headless" anywhere, `navigator.webdriver` false, the audit's tag kept.
 */

/** A brand and its version, as userAgentData lists them. */
interface Brand {
  brand: string;
  version: string;
}

/** Chromium's `navigator.userAgentData`, which TypeScript's DOM types leave out. */
interface UserAgentData {
  brands: Brand[];
  mobile: boolean;
  platform: string;
  getHighEntropyValues(hints: string[]): Promise<{ fullVersionList?: Brand[] }>;
}

/** A structured header's list of brands (`"Chromium";v="156", "Not:A-Brand";v="8"`). */
function brandsOf(header: string | string[] | undefined): Brand[] {
  return [...String(header).matchAll(/"((?:[^"\\]|\\.)*)";v="([^"]*)"/g)].map(([, brand, version]) => ({
    brand: brand!.replace(/\\(.)/g, "$1"),
    version: version!,
  }));
}

/** A list of brands in an order of its own, to compare with another. */
const sorted = (brands: Brand[]) => [...brands].sort((a, b) => a.brand.localeCompare(b.brand));

/** What each viewport emulates: the user agent's platform, userAgentData's, and whether it is a phone. */
const DEVICES = {
  desktop: { userAgent: "Windows NT", platform: "Windows", mobile: false },
  mobile: { userAgent: "Android", platform: "Android", mobile: true },
} as const;

test("on both viewports the user agent names the browser's own major version, as navigator.userAgentData and the Sec-CH-UA headers do, with the same platform and mobility", async ({
  visitorBrowser,
}) => {
  // A page that asks for the full version list, and a request from it whose headers are kept.
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    if (request.url === "/hints") received.push(request.headers);
    response.writeHead(200, { "content-type": "text/html", "accept-ch": "Sec-CH-UA-Full-Version-List" });
    response.end("<!doctype html><title>Hints</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const traffic = resolveTraffic(specWith().traffic, "visitor-test");
  const browserVersion = visitorBrowser.version();
  const major = browserVersion.split(".")[0]!;
  try {
    for (const viewport of ["desktop", "mobile"] as const) {
      const context = await visitorBrowser.newContext(auditContextOptions(viewport, traffic, browserVersion));
      try {
        const page = await context.newPage();
        await page.goto(`${origin}/`);
        const seen = await page.evaluate(async () => {
          const data = (navigator as Navigator & { userAgentData: UserAgentData }).userAgentData;
          const { fullVersionList } = await data.getHighEntropyValues(["fullVersionList"]);
          await fetch("/hints");
          return {
            userAgent: navigator.userAgent,
            webdriver: navigator.webdriver,
            brands: data.brands.map(({ brand, version }) => ({ brand, version })),
            mobile: data.mobile,
            platform: data.platform,
            fullVersionList: fullVersionList!.map(({ brand, version }) => ({ brand, version })),
          };
        });
        const headers = received.pop()!;
        const device = DEVICES[viewport];
        // The user agent: the device's, the browser's own major version, the audit's tag.
        expect(seen.webdriver, viewport).toBe(false);
        expect(seen.userAgent, viewport).not.toMatch(/headless/i);
        expect(seen.userAgent, viewport).toContain(device.userAgent);
        expect(seen.userAgent, viewport).toMatch(new RegExp(` Chrome/${major}\\.0\\.0\\.0 `));
        expect(seen.userAgent.endsWith(` setup-audit/${toolVersion()}`), seen.userAgent).toBe(true);
        expect(headers["user-agent"], viewport).toBe(seen.userAgent);
        // userAgentData: the same browser and major version, platform and mobility.
        expect(seen.brands, viewport).toContainEqual({ brand: "Chromium", version: major });
        expect(seen.fullVersionList, viewport).toContainEqual({ brand: "Chromium", version: browserVersion });
        for (const { brand } of [...seen.brands, ...seen.fullVersionList])
          expect(brand, viewport).not.toMatch(/headless/i);
        expect(seen.platform, viewport).toBe(device.platform);
        expect(seen.mobile, viewport).toBe(device.mobile);
        // The headers: what userAgentData says.
        expect(sorted(brandsOf(headers["sec-ch-ua"])), viewport).toEqual(sorted(seen.brands));
        expect(sorted(brandsOf(headers["sec-ch-ua-full-version-list"])), viewport).toEqual(
          sorted(seen.fullVersionList),
        );
        expect(headers["sec-ch-ua-mobile"], viewport).toBe(device.mobile ? "?1" : "?0");
        expect(headers["sec-ch-ua-platform"], viewport).toBe(`"${device.platform}"`);
      } finally {
        await context.close();
      }
    }
  } finally {
    server.close();
  }
});
