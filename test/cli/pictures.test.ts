import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { chromium } from "playwright";
import { PNG } from "pngjs";
import { reconcileDeliveries } from "../../src/artifacts/delivery.js";
import type { PageArtifacts } from "../../src/artifacts/types.js";
import { LAUNCH_ARGS } from "../../src/browser/launch.js";
import { makeVariationPictures, type PictureBrowserSource } from "../../src/cli/pictures.js";
import type { PictureSources } from "../../src/report/variation-pictures.js";
import type { Finding } from "../../src/findings/finding.js";
import { pageWith, findingWith } from "../support/artifacts.js";
import { testBrowserPath } from "../support/browser.js";
import { scratchDir } from "../support/scratch.js";

const EXPERIMENT = { name: "Pricing CTA copy", page: "pricing" };
const LOCAL: PictureBrowserSource = { browserExecutable: testBrowserPath() ?? null, browserEndpoint: null };
const MISSING: PictureBrowserSource = { browserExecutable: "/nowhere/chromium", browserEndpoint: null };

/** The pricing page's control and one variation on desktop, their first screens kept in a fresh output folder; `previewed` false for a run without experiments. */
function run({ previewed }: { previewed: boolean }): PictureSources {
  const outDir = scratchDir("pictures");
  mkdirSync(join(outDir, "views"));
  const unit = (file: string, variation: PageArtifacts["variation"]) => {
    const screen = new PNG({ width: 640, height: 360 });
    screen.data.fill(200);
    writeFileSync(join(outDir, "views", file), PNG.sync.write(screen));
    const target = { text: "Start", attributes: {}, style: {}, box: { x: 40, y: 40, width: 200, height: 44 } };
    return pageWith({
      page: "pricing",
      variation,
      experimentViews: [
        {
          experiment: EXPERIMENT.name,
          atMs: 300,
          matched: 1,
          visible: 1,
          target,
          overflows: false,
          screen: `views/${file}`,
        },
      ],
    });
  };
  const judged: Finding = findingWith({
    check: "experiment.variation",
    spec: "audits/demo.yaml",
    page: "pricing",
    viewport: "desktop",
    experiment: EXPERIMENT.name,
    variation: "Long copy",
    message: "Previews well.",
  });
  const pages = [
    unit("control.png", null),
    unit("long.png", { experiment: EXPERIMENT.name, name: "Long copy", errors: [] }),
  ];
  return {
    outDir,
    targets: [
      {
        target: { previewed: previewed ? [EXPERIMENT] : [], viewports: ["desktop"] },
        result: { pages: reconcileDeliveries(pages, null), findings: [judged] },
      },
    ],
  };
}

/** What `make` wrote on stderr while it ran. */
async function stderrOf<T>(make: () => Promise<T>): Promise<{ value: T; stderr: string }> {
  let stderr = "";
  const write = process.stderr.write;
  process.stderr.write = ((text: string) => ((stderr += text), true)) as typeof process.stderr.write;
  try {
    return { value: await make(), stderr };
  } finally {
    process.stderr.write = write;
  }
}

const pictureOf = (pictures: Awaited<ReturnType<typeof makeVariationPictures>>, sources: PictureSources) =>
  pictures.get(sources.targets[0]!.target.previewed[0]!)?.get("desktop")?.sideBySide;

test("a run without variations starts no browser: none is needed, even one that does not exist", async () => {
  const { value: pictures, stderr } = await stderrOf(() => makeVariationPictures(run({ previewed: false }), MISSING));
  expect(pictures.size).toBe(0);
  expect(stderr).toBe("");
});

test("the pictures are rendered in a browser launched as the run's, or on the run's browser server", async () => {
  // Two browsers start one after the other, each taking seconds beside the suite's audits: triple time.
  test.slow();
  const local = run({ previewed: true });
  const launched = pictureOf(await makeVariationPictures(local, LOCAL), local);
  // Two columns of 360 pixels and the gutter between them.
  expect(PNG.sync.read(launched!).width).toBe(2 * 360 + 24);

  const server = await chromium.launchServer({ executablePath: testBrowserPath(), args: LAUNCH_ARGS });
  try {
    const remote = run({ previewed: true });
    const served = pictureOf(
      await makeVariationPictures(remote, { browserExecutable: null, browserEndpoint: server.wsEndpoint() }),
      remote,
    );
    expect(served?.equals(launched!)).toBe(true);
  } finally {
    await server.close();
  }
});

test("a browser that cannot be launched leaves the report without pictures, and says why", async () => {
  const { value: pictures, stderr } = await stderrOf(() => makeVariationPictures(run({ previewed: true }), MISSING));
  expect(pictures.size).toBe(0);
  expect(stderr).toMatch(/^setup-audit: could not make the pictures of the variations: .*\/nowhere\/chromium.*\n$/);
});

test("a variation's filmstrip is rendered beside the side-by-side picture: its frames left to right, each cropped to the target under its time", async () => {
  const sources = run({ previewed: true });
  const frame = (file: string, shade: number) => {
    const png = new PNG({ width: 640, height: 360 });
    png.data.fill(shade);
    writeFileSync(join(sources.outDir, "views", file), PNG.sync.write(png));
    return file;
  };
  const [variation] = sources.targets[0]!.result.pages.filter((page) => page.variation !== null);
  const crop = { x: 32, y: 32, width: 216, height: 60 };
  variation!.flicker = {
    frames: [
      [40, 1, -1],
      [90, 0, 0],
      [500, 0, 1],
    ],
    signatures: ["a".repeat(40), "b".repeat(40)],
    readAtMs: 900,
    costMs: 3,
    filmstrip: [40, 90, 500].map((atMs, index) => ({
      atMs,
      screen: `views/${frame(`film${index}.png`, 100 + index * 50)}`,
      crop,
    })),
  };
  const pictures = (await makeVariationPictures(sources, LOCAL))
    .get(sources.targets[0]!.target.previewed[0]!)
    ?.get("desktop");
  expect(pictures?.sideBySide).toBeTruthy();
  const filmstrip = PNG.sync.read(pictures!.filmstrips.get("Long copy")!);
  // Three crops of 216 pixels at the zoom of at most 2 (432 > 360: the zoom is 360 / 216), two gutters between them.
  expect(filmstrip.width).toBe(3 * 360 + 2 * 24);
});
