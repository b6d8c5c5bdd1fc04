import { expect } from "@playwright/test";
import type { BrowserContext } from "playwright";
import { variationLine } from "../../src/gather/variation.js";
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

test("a change that lands later (js waiting for its moment, as a preview link's SDK does) is waited for before the target is seen", async ({
  gather,
}) => {
  const artifacts = await gather(
    "broken",
    { path: "/cta-variations" },
    {
      viewedExperiments: [cta],
      variation: preview({
        js: "setTimeout(function () { document.querySelector('#cta-main').textContent = 'Upgrade later'; }, 600);",
      }),
    },
  );
  expect(artifacts.experimentViews[0]?.target?.text).toBe("Upgrade later");
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

test("a preview link applied while the page is still parsed (as anti-flicker snippets do) is seen changed, once the wait for a change runs out", async ({
  gather,
}) => {
  const experiment = { name: "Pricing CTA copy", selector: "#cta-primary" };
  // Right after the CTA is parsed, an inline script applies the previewed copy: before the end of parsing, where the watch begins.
  const applyWhileParsing = async (context: BrowserContext) => {
    await context.route("**/pricing?*", async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        "Start your free trial</a></p>",
        "Start your free trial</a></p><script>if (location.search.includes('exp_preview')) document.getElementById('cta-primary').textContent = 'Start your free 30-day trial';</script>",
      );
      await route.fulfill({ response, body: html });
    });
  };
  const previewed = await gather(
    "demo",
    { path: "/pricing" },
    {
      viewedExperiments: [experiment],
      variation: { ...preview({ query: { exp_preview: "other" } }), experiment: experiment.name },
    },
    { prepare: applyWhileParsing },
  );
  expect(previewed.experimentViews[0]?.target?.text).toBe("Start your free 30-day trial");
  // The wait ran out (the gatherer's deliveryTimeoutMs here is 2.5 s): no change came after parsing.
  expect(previewed.experimentViews[0]!.atMs).toBeLessThan(previewed.durationMs - 2000);
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
