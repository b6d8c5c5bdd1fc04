import { readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { expect } from "@playwright/test";
import type { BrowserContext } from "playwright";
import { flickerTimes } from "../../src/artifacts/flicker.js";
import { FRAMES_BEFORE_READ } from "../../src/gather/flicker.js";
import { decodePng } from "../../src/gather/png.js";
import { specWith } from "../support/artifacts.js";
import { picturesIn, test } from "../support/gather.js";
import { scratchDir } from "../support/scratch.js";

/**
 * The flicker sampler in a real Chromium: a page applies its variation from a timer a set time after
 * the first frame in which the target exists, and records when the timer really fired; the sampler
 * measures the control painted until then within the frames around it plus 20 ms.
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
        flicker: { selector: "#cta" },
        ...picturesIn(folder, { filmstrip: "film" }),
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
    // The switch is the first frame with the variation. The frames bound what can be measured at
    // both ends: the page's first frame with the button may come up to one frame after the one the
    // sampler saw it in, and its change up to one frame before the switch. On a loaded machine a
    // frame lasts hundreds of milliseconds: the bound is the frames' own, never a fixed time.
    const switchIndex = flicker!.frames.findIndex((row) => row[0] >= times.appliedAtMs);
    const gaps = flicker!.frames.slice(1, switchIndex + 1).map((row, index) => row[0] - flicker!.frames[index]![0]);
    const frameGap = gaps.at(-1)!;
    const longestGap = Math.max(...gaps);
    expect(recorded).toBeGreaterThanOrEqual(PLANTED_MS);
    expect(
      times.controlPaintedMs,
      `measured ${times.controlPaintedMs} ms, recorded ${recorded} ms`,
    ).toBeGreaterThanOrEqual(recorded! - frameGap - 20);
    expect(
      times.controlPaintedMs,
      `measured ${times.controlPaintedMs} ms, recorded ${recorded} ms, frames up to ${longestGap} ms apart`,
    ).toBeLessThanOrEqual(recorded! + longestGap + frameGap + 20);
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

test("a filmstrip covers each field that holds a secret, as the screenshots do: its pixels differ from the same frame unmasked", async ({
  gather,
}) => {
  // A field a step typed a secret into, where no layout moves it: 200 × 40 CSS pixels at (20, 200).
  const field = { x: 20, y: 200, width: 200, height: 40 };
  const withField = page(planted).replace(
    "</body>",
    `<input id="token" value="tok-live-0123456789" style="position: absolute; left: ${field.x}px; top: ${field.y}px; width: ${field.width}px; height: ${field.height}px; font-size: 20px; border: 0; background: #fff"></body>`,
  );
  const folder = scratchDir("flicker-masked");
  try {
    const lastFrame = async (label: string, maskedFields: string[]) => {
      const artifacts = await gather(
        "broken",
        { path: "/fixed-cta" },
        {
          viewedExperiments: [experiment],
          variation,
          maskedFields,
          flicker: { selector: "#cta" },
          ...picturesIn(folder, { filmstrip: label }),
        },
        {
          prepare: async (context) => {
            await context.exposeBinding("__plantedDelay", () => undefined);
            await serve(withField)(context);
          },
        },
      );
      const frame = artifacts.flicker!.filmstrip.at(-1)!;
      return decodePng(readFileSync(join(folder, frame.screen)))!;
    };
    const masked = await lastFrame("masked", ["#token"]);
    const plain = await lastFrame("plain", []);
    // Desktop Chrome: one CSS pixel is one pixel of the frame. The field's inside, away from its edges.
    const inside = (image: NonNullable<ReturnType<typeof decodePng>>) => {
      const pixels: string[] = [];
      for (let y = field.y + 4; y < field.y + field.height - 4; y += 4) {
        for (let x = field.x + 4; x < field.x + field.width - 4; x += 4) {
          const at = (y * image.width + x) * image.bpp;
          pixels.push(image.pixels.subarray(at, at + 3).toString("hex"));
        }
      }
      return pixels;
    };
    expect(new Set(inside(masked))).toEqual(new Set(["ff00ff"]));
    // The unmasked frame shows the field: the typed text on white, no mask.
    expect(inside(plain)).not.toContain("ff00ff");
    expect(new Set(inside(plain)).size).toBeGreaterThan(1);
    // Above the field the masked frame shows the page, no mask: the two frames come from two loads
    // of the page, whose last frames need not be the same moment, so only the mask is compared.
    const maskedAbove = (image: NonNullable<ReturnType<typeof decodePng>>) => {
      let count = 0;
      for (let at = 0; at < field.y * image.width * image.bpp; at += image.bpp)
        if (image.pixels.subarray(at, at + 3).toString("hex") === "ff00ff") count++;
      return count;
    };
    expect(masked.width).toBe(plain.width);
    expect(maskedAbove(masked)).toBe(0);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("a page hidden before its first frame: hidden from when its snippet hid it, not from a first frame a long script held back, until its timer showed it", async ({
  gather,
}) => {
  // The snippet hides the page and sets its timer; a long script after it holds the first frame back.
  const head = `<style>.async-hide { opacity: 0 !important }</style>
<script>
  window.__moments = { hiding: performance.now() };
  document.documentElement.className += " async-hide";
  setTimeout(function () {
    window.__moments.showing = performance.now();
    document.documentElement.className = "";
    window.__shown(window.__moments);
  }, 900);
</script>
<script>
  window.__moments.busyFrom = performance.now();
  for (var until = performance.now() + 600; performance.now() < until;) {}
  window.__moments.busyUntil = performance.now();
</script>`;
  let moments: { hiding: number; showing: number; busyFrom: number; busyUntil: number } | undefined;
  const artifacts = await gather(
    "broken",
    { path: "/fixed-cta" },
    { viewedExperiments: [experiment], variation, flicker: { selector: "#cta" } },
    {
      prepare: async (context) => {
        await context.exposeBinding("__shown", (_source, recorded: typeof moments) => void (moments = recorded));
        await serve(page(head))(context);
      },
    },
  );
  const flicker = artifacts.flicker!;
  expect(moments).toBeDefined();
  const { hiding, showing, busyFrom, busyUntil } = moments!;
  const hiddenAt = flicker.hiddenChanges!.find(([, hidden]) => hidden === 1)![0];
  const shownAt = flicker.hiddenChanges!.find(([atMs, hidden]) => hidden === 0 && atMs > hiddenAt)![0];
  // Seen hidden as the snippet ran, before the long script and the first frame after it.
  expect(hiddenAt).toBeGreaterThanOrEqual(hiding);
  expect(hiddenAt).toBeLessThanOrEqual(busyFrom);
  expect(flicker.frames[0]![0]).toBeGreaterThan(busyUntil);
  // Seen shown as its timer showed it, by the first frame after that at the latest.
  expect(shownAt).toBeGreaterThanOrEqual(showing);
  expect(shownAt).toBeLessThanOrEqual(flicker.frames.find(([atMs, hidden]) => atMs >= showing && hidden === 0)![0]);
  const times = flickerTimes(flicker)!;
  expect(times.hiddenMs).toBe(Math.round(shownAt - hiddenAt));
  expect(times.hiddenMs).toBeGreaterThanOrEqual(Math.floor(showing - busyFrom));
  expect(times.controlPaintedMs).toBe(0);
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
        flicker: { selector: "#cta-primary" },
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
    { viewedExperiments: [experiment], variation, flicker: { selector: "#cta" } },
    { prepare: serve(page(moving)) },
  );
  const times = flickerTimes(artifacts.flicker!)!;
  expect(artifacts.flicker!.signatures).toHaveLength(1);
  expect(times.controlPaintedMs).toBe(0);
});

/** A script that runs `code` (with `cta` bound) `PLANTED_MS` after the first frame in which the target exists. */
const afterFirstTargetFrame = (code: string) => `<script>
  requestAnimationFrame(function look() {
    var cta = document.getElementById("cta");
    if (!cta) return requestAnimationFrame(look);
    setTimeout(function () { ${code} }, ${PLANTED_MS});
  });
</script>`;

for (const [how, code] of [
  ["insertRule", `document.styleSheets[0].insertRule("#cta { background: rgb(10, 125, 59); color: #fff }", 1);`],
  [
    "adoptedStyleSheets",
    `var sheet = new CSSStyleSheet(); sheet.replaceSync("#cta { background: rgb(10, 125, 59); color: #fff }"); document.adoptedStyleSheets = [sheet];`,
  ],
] as const) {
  test(`a variation applied through the CSSOM (${how}), without a mutation: seen on the frame it shows, the control painted until then`, async ({
    gather,
  }) => {
    const head = `<style>#cta { background: #3056d3 }</style>${afterFirstTargetFrame(code)}`;
    const artifacts = await gather(
      "broken",
      { path: "/fixed-cta" },
      { viewedExperiments: [experiment], variation, flicker: { selector: "#cta" } },
      { prepare: serve(page(head)) },
    );
    const flicker = artifacts.flicker!;
    const times = flickerTimes(flicker)!;
    expect(flicker.signatures).toHaveLength(2);
    // The page's timer cannot fire early: the control shows at least that long, less the frame the switch lands on.
    expect(times.controlPaintedMs).toBeGreaterThanOrEqual(PLANTED_MS - 50);
    expect(flicker.documentStartsMs).toEqual([0]);
  });
}

test("a page whose frames come slowly applies its variation through the CSSOM after a count of them, past the delivery timeout: the frames are read once it rendered enough, the switch in them", async ({
  gather,
}) => {
  // Each of its first frames holds the page's thread for 60 ms (a busy machine, or a framework
  // starting): the variation comes about 1.2 s after the first frame, long after the 300 ms the
  // audit waits for a change it cannot see (no mutation).
  const planted = Math.floor(FRAMES_BEFORE_READ / 3);
  const head = `<style>#cta { background: #3056d3 }</style><script>
    var frames = 0;
    requestAnimationFrame(function slow() {
      var until = performance.now() + 60;
      while (performance.now() < until) {}
      if (document.getElementById("cta") && ++frames === ${planted}) document.styleSheets[0].insertRule("#cta { background: rgb(10, 125, 59) }", 1);
      else requestAnimationFrame(slow);
    });
  </script>`;
  const artifacts = await gather(
    "broken",
    { path: "/fixed-cta" },
    {
      viewedExperiments: [experiment],
      variation,
      flicker: { selector: "#cta" },
      sdk: { ...specWith().sdk, deliveryTimeoutMs: 300 },
    },
    { prepare: serve(page(head)) },
  );
  const flicker = artifacts.flicker!;
  expect(flicker.signatures).toHaveLength(2);
  expect(flicker.frames.length).toBeGreaterThanOrEqual(FRAMES_BEFORE_READ);
  // The control showed for the slow frames: 60 ms each at least, less the frame the switch lands on.
  expect(flickerTimes(flicker)!.controlPaintedMs).toBeGreaterThanOrEqual((planted - 2) * 60);
});

test("a variation applied by a client-side redirect: the control painted on the first document counts, on the first navigation's clock", async ({
  gather,
}) => {
  const redirect = afterFirstTargetFrame(`location.replace(location.href.replace("fixed-cta", "fixed-long"));`);
  const long = page("").replace("Sign up", "Start your free trial");
  const artifacts = await gather(
    "broken",
    { path: "/fixed-cta" },
    { viewedExperiments: [experiment], variation, flicker: { selector: "#cta" } },
    {
      prepare: async (context) => {
        await serve(page(redirect))(context);
        await context.route("**/fixed-long?*", (route) => route.fulfill({ contentType: "text/html", body: long }));
      },
    },
  );
  const flicker = artifacts.flicker!;
  const times = flickerTimes(flicker)!;
  expect(artifacts.finalUrl).toContain("/fixed-long");
  expect(flicker.documentStartsMs).toHaveLength(2);
  const [, secondStart] = flicker.documentStartsMs!;
  expect(secondStart).toBeGreaterThanOrEqual(PLANTED_MS);
  // The control's look on the first document, the variation's on the second.
  expect(flicker.signatures).toHaveLength(2);
  expect(flicker.frames.filter((row) => row[0] < secondStart!).every((row) => row[2] !== 1)).toBe(true);
  expect(times.appliedAtMs).toBeGreaterThanOrEqual(secondStart!);
  expect(times.controlPaintedMs).toBeGreaterThanOrEqual(PLANTED_MS - 50);
  // The page test started before its first navigation: the context and its parts came first.
  expect(flicker.navigationStartMs).toBeGreaterThan(0);
});
