import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "@playwright/test";
import type { BrowserContext } from "playwright";
import { targetWatch, variationLine, watchTargetChanges } from "../../src/gather/variation.js";
import { specWith } from "../support/artifacts.js";
import { test } from "../support/gather.js";

/** Previewing a variation in a real Chromium: what the gatherer records of it, not how it is judged. */
const cta = { name: "CTA button wording", selector: "#cta-main" };
const preview = (code: { js?: string; css?: string; query?: Record<string, string> }) => ({
  experiment: cta.name,
  name: "B",
  query: code.query ?? {},
  js: code.js ?? null,
  css: code.css ?? null,
});

test("the css then the js are applied once the SDK is ready, and the target is seen before the journey", async ({
  gather,
}) => {
  const artifacts = await gather(
    "broken",
    { path: "/cta-variations", steps: [{ click: "#cta-main" }] },
    {
      viewedExperiments: [cta],
      variation: preview({
        css: "#cta-main { font-weight: 700 }",
        js: "document.querySelector('#cta-main').textContent = 'Go ' + getComputedStyle(document.querySelector('#cta-main')).fontWeight;",
      }),
    },
  );
  const [view] = artifacts.experimentViews;
  expect(view).toMatchObject({
    experiment: cta.name,
    matched: 1,
    visible: 1,
    overflows: false,
    target: { text: "Go 700", style: expect.objectContaining({ "font-weight": "700" }) },
  });
  expect(view!.atMs).toBeGreaterThanOrEqual(artifacts.sdkReadyAtMs!);
  expect(artifacts.variation).toEqual({ experiment: cta.name, name: "B", errors: [] });
  // The journey's call comes after the change.
  expect(artifacts.calls.filter((call) => call.name === "cta_clicked").every((call) => call.atMs >= view!.atMs)).toBe(
    true,
  );
});

test("what the js throws at once, or later from a timer, is the variation's error with its line, not a page error", async ({
  gather,
}) => {
  const artifacts = await gather(
    "broken",
    { path: "/cta-variations" },
    {
      viewedExperiments: [cta],
      variation: preview({
        js: "setTimeout(function () {\n  null.x;\n}, 0);\n\ndocument.querySelector('#nothing').textContent = 'x';",
      }),
    },
  );
  expect(artifacts.variation?.errors).toEqual(
    expect.arrayContaining([
      { message: "Cannot set properties of null (setting 'textContent')", line: 5 },
      { message: "Cannot read properties of null (reading 'x')", line: 2 },
    ]),
  );
  expect(artifacts.errors).toEqual([]);
});

test("the preview link's parameters are added to the page's URL, and the page as it is is seen at the same moment", async ({
  gather,
}) => {
  const experiment = { name: "Pricing CTA copy", selector: "#cta-primary" };
  const previewed = await gather(
    "demo",
    { path: "/pricing" },
    {
      viewedExperiments: [experiment],
      variation: { ...preview({ query: { exp_preview: "cta-long" } }), experiment: experiment.name },
    },
  );
  expect(new URL(previewed.requestedUrl).searchParams.get("exp_preview")).toBe("cta-long");
  expect(previewed.experimentViews[0]?.target?.text).toBe("Start your free 30-day trial");
  const asIs = await gather("demo", { path: "/pricing" }, { viewedExperiments: [experiment] });
  expect(asIs.variation).toBeNull();
  expect(asIs.experimentViews[0]).toMatchObject({
    experiment: experiment.name,
    matched: 1,
    visible: 1,
    target: { text: "Start your free trial" },
  });
});

/** A route that puts `script` right after the first `after` of the page's HTML, where it runs while the page is parsed. */
const runWhileParsing = (path: string, after: string, script: string) => async (context: BrowserContext) => {
  await context.route(`**${path}*`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(after, `${after}<script>${script}</script>`);
    await route.fulfill({ response, body: html });
  });
};

test("a preview link applied while the page is still parsed (as anti-flicker snippets do) is seen changed, without waiting for a change that already came", async ({
  gather,
}) => {
  const experiment = { name: "Pricing CTA copy", selector: "#cta-primary" };
  // Right after the CTA is parsed, an inline script applies the previewed copy.
  const applyWhileParsing = runWhileParsing(
    "/pricing",
    "Start your free trial</a></p>",
    "if (location.search.includes('exp_preview')) document.getElementById('cta-primary').textContent = 'Start your free 30-day trial';",
  );
  const sdk = { ...specWith().sdk, deliveryTimeoutMs: 60_000 };
  const previewed = await gather(
    "demo",
    { path: "/pricing" },
    {
      sdk,
      viewedExperiments: [experiment],
      variation: { ...preview({ query: { exp_preview: "other" } }), experiment: experiment.name },
    },
    { prepare: applyWhileParsing },
  );
  expect(previewed.experimentViews[0]?.target?.text).toBe("Start your free 30-day trial");
  // Waiting for a change would have held the view for the whole deliveryTimeoutMs.
  expect(previewed.durationMs).toBeLessThan(sdk.deliveryTimeoutMs);
});

test("a change that lands later (js waiting for its moment, as a preview link's SDK does) is waited for before the target is seen, also when the page's own script changed the target while it was parsed", async ({
  gather,
}) => {
  const lateChange = {
    // Time enough for the later change to come, which ends the wait.
    sdk: { ...specWith().sdk, deliveryTimeoutMs: 10_000 },
    viewedExperiments: [cta],
    variation: preview({
      js: "setTimeout(function () { document.querySelector('#cta-main').textContent = 'Upgrade later'; }, 1000);",
    }),
  };
  const markReady = runWhileParsing(
    "/cta-variations",
    "Upgrade now</button></p>",
    "document.querySelector('#cta-main').dataset.ready = '1';",
  );
  for (const prepare of [undefined, markReady]) {
    const artifacts = await gather("broken", { path: "/cta-variations" }, lateChange, { prepare });
    expect(artifacts.experimentViews[0]?.target?.text).toBe("Upgrade later");
  }
});

test("while the page is parsed, only a script's change to a target counts: not text that arrives in parts, nor what the parser moves out of misnested tags", async ({
  browser,
}) => {
  const scripts: Record<string, string> = {
    attribute: "document.getElementById('cta').dataset.variant = 'b';",
    text: "document.getElementById('cta').textContent = 'Long copy';",
    markup: "document.getElementById('cta').innerHTML = '<b>Long</b> copy';",
  };
  // The page arrives in three parts, the CTA's text cut between the first two, then misnested tags around a target.
  const server = createServer((request, response) => {
    const script = scripts[new URL(request.url!, "http://page").searchParams.get("script") ?? ""];
    response.writeHead(200, { "content-type": "text/html" });
    response.write('<!doctype html><html><body><a id="cta" href="#">Start your ');
    setTimeout(() => {
      response.write(`free trial${" and more".repeat(5000)}</a><b><p id="note">Terms</b> apply</p>`);
      if (script) response.write(`<script>${script}</script>`);
      setTimeout(() => response.end("<p>Footer</p></body></html>"), 200);
    }, 200);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const watch = targetWatch([
    { name: "CTA", selector: "#cta" },
    { name: "Note", selector: "#note" },
  ]);
  const changesOf = (key: string) => (window as unknown as Record<symbol, unknown>)[Symbol.for(key)];
  const context = await browser.newContext();
  try {
    await context.addInitScript(watchTargetChanges, watch);
    const page = await context.newPage();
    const watched = async (script: string) => {
      await page.goto(`http://127.0.0.1:${port}/?script=${script}`);
      return page.evaluate(changesOf, watch.key);
    };
    expect(await watched("none")).toEqual({ last: null, whileParsing: false });
    for (const script of Object.keys(scripts))
      expect(await watched(script), script).toEqual({ last: null, whileParsing: true });
    // Once parsed, any change to a target is one, and is timed: not a mark of parsing.
    await watched("none");
    await page.evaluate(() => document.getElementById("cta")!.append(" today"));
    expect(await page.evaluate(changesOf, watch.key)).toEqual({ last: expect.any(Number), whileParsing: false });
  } finally {
    await context.close();
    server.close();
  }
});

test("a line is read only from the variation's own frames", () => {
  expect(variationLine("TypeError: x\n    at eval (setup-audit-variation.js:3:45)\n    at eval (<anonymous>)")).toBe(3);
  expect(variationLine("SyntaxError: Unexpected token ';'\n    at eval (<anonymous>)")).toBeNull();
  expect(variationLine(undefined)).toBeNull();
});

test("the target's pixels are taken, the same for equal renders and other for a letter-spacing-only change", async ({
  gather,
}) => {
  const fixed = { name: "Plan button", selector: "#cta-fixed" };
  const seen = (code: { js?: string; css?: string }) =>
    gather(
      "broken",
      { path: "/fixed-cta" },
      { viewedExperiments: [fixed], variation: { ...preview(code), experiment: fixed.name } },
    ).then((artifacts) => artifacts.experimentViews[0]!.target!);
  const [asIs, rewritten, spaced] = await Promise.all([
    gather("broken", { path: "/fixed-cta" }, { viewedExperiments: [fixed] }).then(
      (artifacts) => artifacts.experimentViews[0]!.target!,
    ),
    seen({ js: "var b = document.querySelector('#cta-fixed'); b.textContent = b.textContent;" }),
    seen({ css: "#cta-fixed { letter-spacing: 1px }" }),
  ]);
  expect(asIs.pixels).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/), steady: true });
  expect(asIs.style["letter-spacing"]).toBe("normal");
  expect(rewritten.pixels).toEqual(asIs.pixels);
  expect(spaced.box).toEqual(asIs.box);
  expect(spaced.pixels?.sha256).not.toBe(asIs.pixels?.sha256);
});

test("a target that faded in and rests at its end (fill-mode forwards) is seen as it rests, not rewound to its start", async ({
  gather,
}) => {
  const fadeIn =
    "@keyframes fade-in { from { opacity: 0 } to { opacity: 1 } } #cta-main { animation: fade-in 60ms forwards }";
  const artifacts = await gather(
    "broken",
    { path: "/cta-variations" },
    { viewedExperiments: [cta], variation: preview({ css: fadeIn }) },
  );
  expect(artifacts.experimentViews[0]).toMatchObject({ matched: 1, visible: 1 });
  expect(artifacts.experimentViews[0]?.target?.style).toEqual(expect.objectContaining({ opacity: "1" }));
});
