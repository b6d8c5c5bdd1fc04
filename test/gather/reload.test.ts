import { expect } from "@playwright/test";
import type { BrowserContext } from "playwright";
import { test } from "../support/gather.js";

/** The page as it is loaded once more in its context for experiment.exposure: the reload's calls are its own. */
test("the reload's calls and requests are kept apart from the page's, and an exposure the first load fired is waited for again", async ({
  gather,
}) => {
  const artifacts = await gather("broken", { path: "/ready-callback" }, { reloadForExposures: ["offers_ready"] });
  expect(artifacts.calls.filter((call) => call.name === "offers_ready")).toHaveLength(1);
  const { reload } = artifacts;
  expect(reload).toMatchObject({ loadError: null });
  expect(reload!.calls.map((call) => call.name)).toEqual(["offers_ready"]);
  expect(reload!.calls[0]!.atMs).toBeGreaterThanOrEqual(reload!.atMs);
  expect(artifacts.calls.every((call) => call.atMs < reload!.atMs)).toBe(true);
  expect(artifacts.collect.every((request) => request.atMs < reload!.atMs)).toBe(true);
  expect(
    reload!.collect.some((request) => request.events.some((event) => event.strings.includes("offers_ready"))),
  ).toBe(true);
});

test("a reload slower to load than the delivery timeout still waits for the exposure: its time starts once the page has loaded", async ({
  gather,
}) => {
  let documents = 0;
  const slowReload = async (context: BrowserContext) => {
    await context.route("**/ready-callback", async (route) => {
      documents += 1;
      // The gatherer's deliveryTimeoutMs here is 2500 ms: the reload's document alone takes longer.
      if (documents === 2) await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.fallback();
    });
  };
  const artifacts = await gather(
    "broken",
    { path: "/ready-callback" },
    { reloadForExposures: ["offers_ready"] },
    { prepare: slowReload },
  );
  expect(documents).toBe(2);
  expect(artifacts.reload).toMatchObject({ loadError: null });
  expect(artifacts.reload!.calls.map((call) => call.name)).toEqual(["offers_ready"]);
});

test("without exposures to fire again, the page is not reloaded", async ({ gather }) => {
  expect((await gather("broken", { path: "/ready-callback" })).reload).toBeNull();
});

test("a journey that left the page: the reload loads the page's own URL, and the page's final URL and navigations stay where the journey ended", async ({
  gather,
}) => {
  const artifacts = await gather(
    "broken",
    { path: "/navigate-away", steps: [{ click: "#go" }] },
    { reloadForExposures: ["never_sent"] },
  );
  expect(new URL(artifacts.finalUrl!).pathname).toBe("/thanks");
  expect(new URL(artifacts.navigations.at(-1)!).pathname).toBe("/thanks");
  expect(artifacts.reload).toMatchObject({ loadError: null, calls: [] });
});
