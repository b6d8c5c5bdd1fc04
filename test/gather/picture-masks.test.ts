import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "@playwright/test";
import type { BrowserContext } from "playwright";
import { PNG } from "pngjs";
import type { PageArtifacts } from "../../src/artifacts/types.js";
import { specWith } from "../support/artifacts.js";
import { picturesIn, test } from "../support/gather.js";
import { scratchDir } from "../support/scratch.js";

/**
 * The masks of every picture the gatherer saves (docs/closed-sites.md): the text a page shows of a
 * secret of the run is covered like a field typed from one, and a picture whose masks cannot be
 * placed is not saved, the artifacts saying why.
 */

const serve = (html: string) => async (context: BrowserContext) => {
  await context.route("**/account*", (route) => route.fulfill({ contentType: "text/html", body: html }));
};

/** A signed-in page that echoes a token: in a welcome line (split across two elements), and as a field's value. Monospace, so that two tokens of one length lay out alike. */
const echoPage = (token: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Account</title>
<style>body { font: 16px/1.5 monospace; margin: 20px } input { font: inherit; border: 0; background: #fff }</style></head>
<body><h1 id="headline">Account</h1>
<p id="welcome">Welcome, <b>${token.slice(0, 6)}</b>${token.slice(6)}!</p>
<p>Your code: <input id="code" value="${token}" size="30" readonly></p>
<p id="cta">Start your trial</p></body></html>`;

const experiment = { name: "Trial copy", selector: "#cta" };

/** The pages have no SDK, and nothing changes on them: the waits for one are kept short. */
const sdk = { ...specWith().sdk, deliveryTimeoutMs: 500, settleMs: 100 };

/** How many pixels of a picture are the mask's colour. */
function maskPixels(png: PNG): number {
  let count = 0;
  for (let at = 0; at < png.data.length; at += 4)
    if (png.data[at] === 0xff && png.data[at + 1] === 0x00 && png.data[at + 2] === 0xff) count++;
  return count;
}

test("the text and the field values that show a secret of the run are masked in the screenshot, the view screen and the filmstrip: two secrets give the same pixels", async ({
  gather,
}) => {
  const folder = scratchDir("echoed-secret");
  const tokens = ["tok_live_7Qz9Xc2Lm4", "tok_live_Hb8Wn3Pr6K"];
  const pictured: { artifacts: PageArtifacts; screens: PNG[] }[] = [];
  for (const [run, token] of tokens.entries()) {
    const artifacts = await gather(
      "broken",
      { path: "/account" },
      {
        // A run's secrets hold more than the page shows: a password it never echoes, too short ones.
        sdk,
        secrets: [token, "stage-Pass-7741", "x9"],
        viewedExperiments: [experiment],
        variation: { experiment: experiment.name, name: "Long copy", query: { preview: "1" }, js: null, css: null },
        flicker: { selector: "#cta" },
        ...picturesIn(folder, {
          screenshot: `${run}-screenshot.png`,
          view: `${run}-view.png`,
          filmstrip: `${run}-film`,
        }),
      },
      { prepare: serve(echoPage(token)) },
    );
    const film = artifacts.flicker?.filmstrip.at(-1)?.screen;
    const screens = [artifacts.screenshot, artifacts.experimentViews[0]?.screen, film];
    expect(
      screens.every((screen) => typeof screen === "string"),
      JSON.stringify(screens),
    ).toBe(true);
    pictured.push({ artifacts, screens: screens.map((screen) => PNG.sync.read(readFileSync(join(folder, screen!)))) });
    for (const screen of screens) expect(readFileSync(join(folder, screen!)).includes(token)).toBe(false);
  }
  const [first, second] = pictured;
  expect(first!.artifacts.picturesLeftOut ?? []).toEqual([]);
  for (const [index, kind] of ["screenshot", "view screen", "last filmstrip frame"].entries()) {
    const [a, b] = [first!.screens[index]!, second!.screens[index]!];
    // Painted over where the tokens are: the welcome line's text and the field.
    expect(maskPixels(a), kind).toBeGreaterThan(1000);
    expect([a.width, a.height], kind).toEqual([b.width, b.height]);
    expect(a.data.equals(b.data), kind).toBe(true);
  }
});

test("a screenshot whose field typed from a secret is gone when it is taken is not saved, and the artifacts say why; the view screen, taken before it was typed, is", async ({
  gather,
}) => {
  const folder = scratchDir("field-gone");
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>Coupon</title></head>
<body><h1>Coupon</h1><p><input id="coupon" size="24"> <button id="apply" type="button">Apply</button></p>
<script>document.getElementById("apply").addEventListener("click", () => document.getElementById("coupon").remove());</script>
</body></html>`;
  const artifacts = await gather(
    "broken",
    { path: "/account", steps: [{ fill: { selector: "#coupon", value: "preview-abc1" } }, { click: "#apply" }] },
    {
      sdk,
      maskedFields: ["#coupon"],
      viewedExperiments: [{ name: "Heading", selector: "h1" }],
      ...picturesIn(folder, { screenshot: "screenshot.png", view: "view.png" }),
    },
    { prepare: serve(html) },
  );
  expect(artifacts.stepError).toBeNull();
  expect(artifacts.screenshot).toBeNull();
  expect(artifacts.picturesLeftOut).toEqual([
    {
      picture: "screenshot",
      why: "the field #coupon, which a step typed a secret or a canary into, was not on the page to be masked",
    },
  ]);
  // Before the journey the field is there, empty: masked all the same, and the screen kept.
  expect(artifacts.experimentViews[0]?.screen).toBe("view.png");
  expect(maskPixels(PNG.sync.read(readFileSync(join(folder, "view.png"))))).toBeGreaterThan(500);
});
