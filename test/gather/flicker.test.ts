import { readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { expect } from "@playwright/test";
import type { BrowserContext } from "playwright";
import { flickerTimes } from "../../src/artifacts/flicker.js";
import { test } from "../support/gather.js";
import { scratchDir } from "../support/scratch.js";

/**
 * The flicker sampler in a real Chromium: a page applies its variation from a timer a set time after
 * the first frame in which the target exists, and records when the timer really fired; the sampler
 * measures the control painted until then within one frame plus 20 ms.
 */
const PLANTED_MS = 400;
const page = (head: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Plans</title>${head}</head>
<body><h1>Plans</h1><p><button id="cta" type="button" style="width: 240px">Sign up</button></p></body></html>`;
const planted = `<script>
  window.__planted = {};
  requestAnimationFrame(function look() {
    var cta = document.getElementById("cta");
    if (!cta) return requestAnimationFrame(look);
    window.__planted.firstFrame = performance.now();
    setTimeout(function () {
      cta.textContent = "Start your free trial";
      window.__plantedDelay(performance.now() - window.__planted.firstFrame);
    }, ${PLANTED_MS});
  });
</script>`;
const serve = (html: string) => async (context: BrowserContext) => {
  await context.route("**/fixed-cta?*", (route) => route.fulfill({ contentType: "text/html", body: html }));
};
const experiment = { name: "Plan button copy", selector: "#cta" };
const variation = { experiment: experiment.name, name: "Long copy", query: { plant: "1" }, js: null, css: null };

test("a variation applied by a timer after the first frame: the control painted is the recorded delay within one frame plus 20 ms, and the filmstrip shows the switch", async ({
  gather,
}) => {
  const folder = scratchDir("flicker");
  try {
    let recorded: number | undefined;
    const artifacts = await gather(
      "broken",
      { path: "/fixed-cta" },
      {
        viewedExperiments: [experiment],
        variation,
        flicker: {
          selector: "#cta",
          filmstrip: (index) => ({ path: join(folder, `film${index}.png`), name: `film${index}.png` }),
        },
      },
      {
        prepare: async (context) => {
          await context.exposeBinding("__plantedDelay", (_source, delay: number) => void (recorded = delay));
          await serve(page(planted))(context);
        },
      },
    );
    const { flicker } = artifacts;
    expect(flicker).toBeTruthy();
    const times = flickerTimes(flicker!)!;
    // The switch is the first frame with the variation: one frame is the gap before it.
    const switchIndex = flicker!.frames.findIndex((row) => row[0] >= times.appliedAtMs);
    const frameGap = flicker!.frames[switchIndex]![0] - flicker!.frames[switchIndex - 1]![0];
    expect(recorded).toBeGreaterThanOrEqual(PLANTED_MS);
    expect(
      Math.abs(times.controlPaintedMs - recorded!),
      `measured ${times.controlPaintedMs} ms, recorded ${recorded} ms, frame ${frameGap} ms`,
    ).toBeLessThanOrEqual(frameGap + 20);
    expect(times.hiddenMs).toBe(0);
    expect(flicker!.signatures).toHaveLength(2);
    expect(flicker!.filmstrip.length).toBeGreaterThanOrEqual(2);
    expect(flicker!.filmstrip.some((frame) => frame.atMs < times.appliedAtMs)).toBe(true);
    expect(flicker!.filmstrip.at(-1)!.atMs).toBeGreaterThanOrEqual(times.appliedAtMs);
    for (const frame of flicker!.filmstrip)
      expect(readFileSync(join(folder, frame.screen)).subarray(1, 4).toString()).toBe("PNG");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

/**
 * Serves `html` in two parts, the second `pauseMs` after the first: the parser stops after the
 * first and the browser paints what it has, as it does when a slow network or a busy CPU makes
 * it yield there. Resolves to the server's origin.
 */
async function pausedAfter(
  html: string,
  splitAfter: string,
  pauseMs: number,
): Promise<{ origin: string; server: Server }> {
  const at = html.indexOf(splitAfter) + splitAfter.length;
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    // Padding past the parser's first read, so that the first part is parsed and painted on its own.
    response.write(`${html.slice(0, at)}<!--${" ".repeat(4096)}-->`);
    setTimeout(() => response.end(html.slice(at)), pauseMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, server };
}

test("the demo shop's preview link is applied before any frame paints its target, even when the parser stops right after the target", async ({
  gather,
  fixtures,
}) => {
  const previewed = `${fixtures.urls.demoShop}/pricing?exp_preview=cta-long`;
  const html = await (await fetch(previewed)).text();
  const { origin, server } = await pausedAfter(html, "Start your free trial</a></p>", PLANTED_MS);
  try {
    const preview = {
      experiment: "Pricing CTA copy, short vs long",
      name: "Preview link",
      query: { exp_preview: "cta-long" },
      js: null,
      css: null,
    };
    const artifacts = await gather(
      "demo",
      { path: `${origin}/pricing` },
      {
        viewedExperiments: [{ name: preview.experiment, selector: "#cta-primary" }],
        variation: preview,
        flicker: { selector: "#cta-primary", filmstrip: null },
      },
    );
    const flicker = artifacts.flicker!;
    // Frames were painted while the rest of the document was held back; none showed the control's copy.
    expect(flicker.frames.length).toBeGreaterThan(1);
    expect(flicker.signatures).toHaveLength(1);
    expect(flickerTimes(flicker)!.controlPaintedMs).toBe(0);
  } finally {
    server.close();
  }
});

test("a target whose content stays (a banner pushes it down, its glyphs change width, it pulses) shows one look: no control is painted", async ({
  gather,
}) => {
  const moving = `<style>@keyframes pulse { from { transform: scale(1) } to { transform: scale(1.05) } } #cta { animation: pulse 300ms infinite alternate }</style><script>
  setTimeout(function () {
    var banner = document.createElement("div");
    banner.style.height = "120px";
    banner.textContent = "We use cookies";
    document.body.prepend(banner);
    document.getElementById("cta").style.width = "260px";
  }, 300);
</script>`;
  const artifacts = await gather(
    "broken",
    { path: "/fixed-cta" },
    { viewedExperiments: [experiment], variation, flicker: { selector: "#cta", filmstrip: null } },
    { prepare: serve(page(moving)) },
  );
  const times = flickerTimes(artifacts.flicker!)!;
  expect(artifacts.flicker!.signatures).toHaveLength(1);
  expect(times.controlPaintedMs).toBe(0);
});
