import { expect } from "@playwright/test";
import { CallsPart } from "../../src/gather/calls.js";
import { NetworkPart } from "../../src/gather/network.js";
import type { GatherRun } from "../../src/gather/gather-run.js";
import type { PageInput } from "../../src/schedule/page-input.js";
import { Gathering } from "../../src/gather/part.js";
import { RouteWatch } from "../../src/gather/routes.js";
import { specWith } from "../support/artifacts.js";
import { test } from "../support/browser.js";

const SITE = "http://shop.example.test";

/** A stand-in SDK: `track` sends its event at once, `init` sends nothing. */
const PAGE = `<!doctype html><script>
  window.expsvc = {
    init: function () {},
    track: function (name) {
      return fetch("${SITE}/v1/collect?event=" + name, { method: "POST", body: JSON.stringify({ event: name }) });
    },
  };
</script>`;

/**
 * The page is done once its quiet window ended: what it does after that was not waited for, so it
 * is not judged (a batch leaving then would read as a call never delivered), until a reload starts.
 */
test("after the page is done and until its reload starts, its calls and collect requests are not kept", async ({
  browser,
}) => {
  const context = await browser.newContext();
  try {
    await context.route(`${SITE}/**`, (route) =>
      route.request().method() === "POST"
        ? route.fulfill({ status: 200, body: "{}" })
        : route.fulfill({ contentType: "text/html", body: PAGE }),
    );
    const sdk = specWith({
      sdk: {
        script: "**/sdk.js",
        global: "expsvc",
        track: "track",
        identify: "identify",
        init: "init",
        collect: "**/v1/collect",
      },
    }).sdk;
    const gathering = new Gathering(context, { sdk, projectKeys: [] } as unknown as PageInput, {} as GatherRun);
    const network = new NetworkPart(gathering);
    const calls = new CallsPart(gathering, new RouteWatch(), network.capture);
    await calls.install();
    const page = await gathering.open();
    await page.goto(`${SITE}/`);

    const track = async (name: string) => {
      const answered = context.waitForEvent("requestfinished", (request) => request.url().endsWith(`event=${name}`));
      await page.evaluate(
        (name) => (window as unknown as { expsvc: { track(name: string): unknown } }).expsvc.track(name),
        name,
      );
      await answered;
      // An init call is noted whatever the moment: once it is, the track's message before it was too.
      await page.evaluate(
        (name) => (window as unknown as { expsvc: { init(key: string): void } }).expsvc.init(name),
        name,
      );
      await expect.poll(() => calls.inits.map((init) => init.key)).toContain(name);
    };
    const kept = () => ({
      calls: calls.recorded.map((call) => call.name),
      requests: network.capture.collect.map((request) => new URL(request.url).searchParams.get("event")),
    });

    await track("before_done");
    gathering.markDone();
    await track("after_done");
    expect(kept()).toEqual({ calls: ["before_done"], requests: ["before_done"] });
    gathering.reloadAtMs = gathering.sinceStart(Date.now());
    await track("reloaded");
    expect(kept()).toEqual({ calls: ["before_done", "reloaded"], requests: ["before_done", "reloaded"] });
  } finally {
    await context.close();
  }
});
