import { expect, type BrowserContext } from "@playwright/test";
import { specWith } from "../support/artifacts.js";
import { test } from "../support/gather.js";

/**
 * The gatherer's model of an SDK on hand-made pages served by routes: SDKs that freeze their API,
 * lock their global, fill their methods in after assigning it, and a site without a favicon. The
 * page must behave exactly as without the audit, and the audit must say what it could not see.
 */

/** An SDK that posts each call to `/hostile/v1/collect` on the page's origin; `install` puts `sdk` on the window. */
function hostileSdk(install: string): string {
  return `(function () {
  function send(event) {
    fetch("/hostile/v1/collect", { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify({ key: "prj_broken_staging", events: [event] }) }).catch(function () {});
  }
  var sdk = {
    track: function (name, properties) { send({ kind: "track", name: name, properties: properties || {} }); return "tracked " + name; },
    identify: function (userId, attributes) { send({ kind: "identify", userId: userId, attributes: attributes || {} }); return this === sdk; },
  };
  ${install}
})();`;
}

/** A page that loads the SDK from `/hostile/sdk/v1/sdk.js` and, on #go, identifies and tracks, keeping what the calls returned. */
const PAGE = `<!doctype html><html><head><title>Hostile</title><script src="/hostile/sdk/v1/sdk.js"></script></head>
<body><button id="go" type="button">Go</button><output id="result"></output>
<script>
document.getElementById("go").addEventListener("click", function () {
  var same = expsvc.track === expsvc.track;
  var thisKept = expsvc.identify("user-123", { plan: "pro", account_type: "business" });
  var returned = expsvc.track("signup_success", { plan: "pro" });
  document.getElementById("result").textContent = [same, thisKept, returned].join("|");
});
</script></body></html>`;

/** Serves the page and its SDK, and stands in for the collector: what it received is returned, event by event. */
async function serve(context: BrowserContext, sdkSource: string): Promise<string[]> {
  const received: string[] = [];
  await context.route("**/hostile/sdk/v1/sdk.js", (route) =>
    route.fulfill({ contentType: "application/javascript", body: sdkSource }),
  );
  await context.route("**/hostile-page", (route) => route.fulfill({ contentType: "text/html", body: PAGE }));
  await context.route("**/hostile/v1/collect", async (route) => {
    const { events } = route.request().postDataJSON() as { events: { kind: string; name?: string; userId?: string }[] };
    received.push(...events.map((event) => `${event.kind} ${event.name ?? event.userId}`));
    await route.fulfill({ status: 202, contentType: "application/json", body: '{"status":"accepted"}' });
  });
  return received;
}

for (const [variant, install, reason, detail] of [
  ["frozen", "window.expsvc = Object.freeze(sdk);", "frozen", "expsvc.track"],
  [
    "locked",
    'Object.defineProperty(window, "expsvc", { configurable: false, enumerable: true, writable: false, value: sdk });',
    "redefined",
    "window.expsvc",
  ],
] as const) {
  test(`an SDK whose ${variant === "frozen" ? "API object is frozen" : "global is locked by defineProperty"} works as without the audit, and its calls are read from the network`, async ({
    gather,
  }) => {
    let received: string[] = [];
    const artifacts = await gather(
      "broken",
      {
        path: "/hostile-page",
        steps: [{ click: "#go" }, { waitForEvent: "signup_success" }],
        expect: { track: ["signup_success"], identify: true },
      },
      {},
      { prepare: async (context) => void (received = await serve(context, hostileSdk(install))) },
    );
    expect(received).toEqual(["identify user-123", "track signup_success"]);
    expect(artifacts.errors).toEqual([]);
    expect(artifacts.stepError).toBeNull();
    expect(artifacts.sdkReadyAtMs).not.toBeNull();
    expect(artifacts.callsFromNetwork).toEqual({ reason, detail });
    expect(artifacts.calls.map((call) => `${call.kind} ${call.name}`)).toEqual([
      "identify user-123",
      "track signup_success",
    ]);
    expect(artifacts.calls[0]!.properties).toEqual({ plan: "pro", account_type: "business" });
    expect(artifacts.collect.map((request) => request.status)).toEqual([202, 202]);
  });
}

test("the recorder keeps the page's invariants: one function per method, `this` and return values are the SDK's", async ({
  gather,
}) => {
  let context: BrowserContext | undefined;
  await gather(
    "broken",
    { path: "/hostile-page", steps: [{ click: "#go" }, { waitForEvent: "signup_success" }] },
    {},
    {
      prepare: async (opened) => {
        context = opened;
        await serve(opened, hostileSdk("window.expsvc = sdk;"));
      },
    },
  );
  expect(await context!.pages()[0]!.textContent("#result")).toBe("true|true|tracked signup_success");
});

test("an SDK that assigns an empty object and fills its methods in afterwards is ready once its script has run: the journey does not wait", async ({
  gather,
}) => {
  const fillsLater = "window.expsvc = {}; window.expsvc.track = sdk.track; window.expsvc.identify = sdk.identify;";
  // A journey that waited for the SDK would start after deliveryTimeoutMs (30 s): far from a loaded machine's slow page (5 s seen).
  const artifacts = await gather(
    "broken",
    { path: "/hostile-page", steps: [{ click: "#go" }] },
    { sdk: { ...specWith().sdk, deliveryTimeoutMs: 30_000 } },
    { prepare: async (context) => void (await serve(context, hostileSdk(fillsLater))) },
  );
  expect(artifacts.sdkReadyAtMs).not.toBeNull();
  expect(artifacts.callsFromNetwork).toBeNull();
  expect(artifacts.calls.map((call) => [call.name, call.state])).toEqual([
    ["user-123", "direct"],
    ["signup_success", "direct"],
  ]);
  expect(artifacts.calls[0]!.atMs).toBeLessThan(15_000);
});

test("the browser's own favicon request is not the page's error", async ({ gather }) => {
  const artifacts = await gather("broken", { path: "/no-favicon" });
  expect(artifacts.calls.map((call) => call.name)).toEqual(["plain_seen"]);
  expect(artifacts.errors).toEqual([]);
});

test("an SDK that assigns its global again with the value it read gets one record per call, each delivered, and does not hold the page", async ({
  gather,
}) => {
  // Amplitude's bundle does this: `window.amplitude = Object.assign(window.amplitude || {}, sdk)`.
  // A page held for its calls would last deliveryTimeoutMs (30 s): far from a loaded machine's slow page (5 s seen).
  const reassigns = "window.expsvc = sdk; window.expsvc = window.expsvc;";
  let received: string[] = [];
  const artifacts = await gather(
    "broken",
    { path: "/hostile-page", steps: [{ click: "#go" }, { waitForEvent: "signup_success" }] },
    { sdk: { ...specWith().sdk, deliveryTimeoutMs: 30_000 } },
    { prepare: async (context) => void (received = await serve(context, hostileSdk(reassigns))) },
  );
  expect(received).toEqual(["identify user-123", "track signup_success"]);
  expect(artifacts.callsFromNetwork).toBeNull();
  expect(artifacts.calls.map((call) => [call.kind, call.name, call.state])).toEqual([
    ["identify", "user-123", "direct"],
    ["track", "signup_success", "direct"],
  ]);
  expect(artifacts.durationMs).toBeLessThan(15_000);
});
