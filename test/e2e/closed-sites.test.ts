import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { expect, test } from "@playwright/test";
import { chromium } from "playwright";
import { PNG } from "pngjs";
import { FIXTURE_PORTS } from "../../fixtures/server.js";
import { CLOSED_SITE_SECRETS, sessionFor, type ElsewhereRequest } from "../../fixtures/sites/closed-sites.js";
import type { PageArtifacts } from "../../src/artifacts/types.js";
import { LAUNCH_ARGS } from "../../src/browser/launch.js";
import { deviceFor } from "../../src/browser/viewports.js";
import type { RunSummary } from "../../src/results/summary.js";
import type { Finding } from "../../src/findings/finding.js";
import { testBrowserPath } from "../support/browser.js";
import { e2eSpec, readSummary, runCli, type CliRun } from "./cli.js";
import { scratchDir } from "../support/scratch.js";

/**
 * Closed staging sites (fixtures/sites/closed-sites.ts): Basic auth, a preview token in a header
 * or a cookie, a login form with a cookie session, and a storage state saved from it. Each is
 * audited on both viewports; no output shows a secret (a coupon code typed from a variable and
 * sent as a property, a session that a redirect carries in its URL), no picture shows a field
 * typed from a variable, and no secret reaches another origin.
 */

const { user, password, token, coupon } = CLOSED_SITE_SECRETS;
const SECRETS_ENV = { CLOSED_USER: user, CLOSED_PASSWORD: password, CLOSED_TOKEN: token, CLOSED_COUPON: coupon };
const SITE = `http://localhost:${FIXTURE_PORTS.closedSites}`;
const VIEWPORTS = ["desktop", "mobile"];

/** Every secret of the closed sites, Basic auth's pair and the session a sign-in sets among them. */
const SECRETS = [user, password, token, coupon, `${user}:${password}`, sessionFor(user)];

/**
 * The shapes a secret takes in text: as it is, URL-encoded, and in base64 and base64url at each of
 * the three alignments it may have inside longer encoded data (the single-file report embeds its
 * data in base64); only the characters that do not depend on the neighbouring bytes.
 */
function secretShapes(secret: string): string[] {
  const encoded = [0, 1, 2].flatMap((offset) => {
    const base64 = Buffer.concat([Buffer.alloc(offset), Buffer.from(secret)]).toString("base64");
    const inner = base64.slice(offset === 0 ? 0 : 4, -4);
    return [inner, inner.replaceAll("+", "-").replaceAll("/", "_")];
  });
  return [...new Set([secret, encodeURIComponent(secret), ...encoded])];
}

/** Every file under `dir`, as a path and its bytes read as text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path: relative(dir, path), text: readFileSync(path, "latin1") };
    });
}

/** Where any secret (the closed sites' and `others`) shows, in any shape, in what the run printed or wrote into `out`. */
function leaks(run: CliRun, out: string, others: readonly string[] = []): string[] {
  const places = [{ path: "stdout", text: run.stdout }, { path: "stderr", text: run.stderr }, ...filesUnder(out)];
  return [...SECRETS, ...others].flatMap((secret) =>
    secretShapes(secret).flatMap((shape) =>
      places.filter((place) => place.text.includes(shape)).map((place) => `${place.path}: ${JSON.stringify(shape)}`),
    ),
  );
}

/** The findings of one spec of the run. */
function findingsOf(summary: RunSummary, spec: string): Finding[] {
  return summary.findings.filter((finding) => finding.spec === spec);
}

/** The saved artifacts of one page of a spec, on each viewport. */
function savedPages(out: string, spec: string, page: string): PageArtifacts[] {
  const dir = join(out, "artifacts", "pages");
  const pages = readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), "utf8")) as PageArtifacts);
  return pages
    .filter((saved) => saved.spec === spec && saved.page === page)
    .sort((a, b) => a.viewport.localeCompare(b.viewport));
}

/** The colour Playwright's `mask` paints a field with. */
const MASK = [0xff, 0x00, 0xff];

/** The pixels of a box (CSS pixels, a 2-pixel border left out) of a PNG, as RGB triples. */
function pixelsIn(png: PNG, box: { x: number; y: number; width: number; height: number }): number[][] {
  const pixels: number[][] = [];
  for (let y = Math.ceil(box.y) + 2; y < Math.floor(box.y + box.height) - 2; y++) {
    for (let x = Math.ceil(box.x) + 2; x < Math.floor(box.x + box.width) - 2; x++) {
      const at = (png.width * y + x) * 4;
      pixels.push([png.data[at]!, png.data[at + 1]!, png.data[at + 2]!]);
    }
  }
  return pixels;
}

/** A box in CSS pixels of a picture. */
type Box = { x: number; y: number; width: number; height: number };

/**
 * The coupon page as pictured without a mask, signed in, with the code typed and applied: where
 * its field is, and the code it echoes back; and the account page, where the session shows.
 */
interface TypedCoupon {
  typed: PNG;
  box: Box;
  echo: Box;
  account: PNG;
  session: Box;
}

/** The coupon and account pages on each viewport, pictured without a mask with the code typed and applied, in one browser. */
async function typedCoupons(): Promise<Map<string, TypedCoupon>> {
  const browser = await chromium.launch({ executablePath: testBrowserPath(), args: LAUNCH_ARGS });
  try {
    const pictured = new Map<string, TypedCoupon>();
    for (const viewport of VIEWPORTS) {
      const context = await browser.newContext({ ...deviceFor(viewport) });
      await context.addCookies([{ name: "members_session", value: sessionFor(user), url: SITE }]);
      const page = await context.newPage();
      await page.goto(`${SITE}/members/coupon`);
      await page.locator("#coupon").fill(coupon);
      await page.locator("#apply").click();
      const box = (await page.locator("#coupon").boundingBox())!;
      const echo = (await page.locator("#applied code").boundingBox())!;
      const typed = PNG.sync.read(await page.screenshot({ scale: "css", caret: "hide" }));
      await page.goto(`${SITE}/members/account`);
      const session = (await page.locator("#session code").boundingBox())!;
      const account = PNG.sync.read(await page.screenshot({ scale: "css", caret: "hide" }));
      pictured.set(viewport, { typed, box, echo, account, session });
    }
    return pictured;
  } finally {
    await browser.close();
  }
}

/** A box in a picture of the audit is all mask, where the same page pictured without a mask shows a secret there (dark glyphs). */
function expectMasked(picture: string, unmaskedPicture: PNG, box: Box): void {
  const pictured = PNG.sync.read(readFileSync(picture));
  expect([pictured.width, pictured.height], picture).toEqual([unmaskedPicture.width, unmaskedPicture.height]);
  const masked = pixelsIn(pictured, box);
  const unmasked = pixelsIn(unmaskedPicture, box);
  expect(masked.length, picture).toBeGreaterThan(100);
  expect(
    masked.filter((pixel) => pixel.join() !== MASK.join()),
    picture,
  ).toEqual([]);
  expect(unmasked.filter((pixel) => Math.max(...pixel) < 128).length, picture).toBeGreaterThan(20);
}

const outDir = (name: string) => scratchDir(`closed-sites-${name}`);

const SPECS = ["closed-basic.yaml", "closed-token-header.yaml", "closed-token-cookie.yaml", "closed-members.yaml"].map(
  e2eSpec,
);

/** A spec that starts from a storage state saved from a signed-in browser, beside it in `dir`. */
function storageStateSpec(dir: string): string {
  const state = {
    cookies: [
      {
        name: "members_session",
        value: sessionFor(user),
        domain: "localhost",
        path: "/",
        expires: -1,
        httpOnly: true,
        secure: false,
        sameSite: "Lax",
      },
    ],
    origins: [],
  };
  writeFileSync(join(dir, "signed-in.json"), JSON.stringify(state));
  const members = readFileSync(e2eSpec("closed-members.yaml"), "utf8");
  const file = join(dir, "closed-state.yaml");
  writeFileSync(
    file,
    members
      .replace(/ {6}login:[\s\S]*?(?=sdk:)/, "      storageState: signed-in.json\n")
      .replace("project: Closed staging, login form", "project: Closed staging, storage state"),
  );
  return file;
}

test("each closed site passes with its auth on both viewports; no output shows a secret, the saved artifacts included, and none reaches another origin", async () => {
  // Five specs on both viewports, with their logins: more than one audit's time on a busy machine.
  test.slow();
  const specDir = outDir("spec");
  const specs = [...SPECS, storageStateSpec(specDir)];
  const out = outDir("pass");
  // A temporary folder of the run's own (another test's run, beside it, keeps its work folder in the
  // machine's), with a short path: Chromium's sockets live there, and a socket's path has a limit.
  const temporary = mkdtempSync(join(tmpdir(), "sa-"));
  const run = await runCli(["run", ...specs, "--out", out, "--single-file", "--save-artifacts"], {
    ...SECRETS_ENV,
    TMPDIR: temporary,
  });
  expect(run.code, run.stderr + run.stdout).toBe(0);
  const summary = readSummary(out);
  expect(summary.runs.map((spec) => [spec.spec, spec.verdict])).toEqual(specs.map((spec) => [spec, "pass"]));

  // Every page × viewport was let in and judged: its events fired and were delivered.
  for (const spec of specs) {
    const findings = findingsOf(summary, spec);
    const pages = [
      ...new Set(
        findings
          .filter((finding) => finding.check === "page.access" && finding.page !== null)
          .map((finding) => finding.page),
      ),
    ];
    expect(pages.length, spec).toBeGreaterThan(0);
    for (const check of ["page.access", "page.load", "sdk.present", "events.expected", "events.delivered"]) {
      const judged = findings.filter((finding) => finding.check === check && finding.page !== null);
      expect(
        judged.map((finding) => [finding.page, finding.viewport, finding.status]).sort(),
        `${spec} ${check}`,
      ).toEqual(pages.flatMap((page) => VIEWPORTS.map((viewport) => [page, viewport, "pass"])).sort());
    }
  }
  // The login ran once per viewport and got in.
  const logins = findingsOf(summary, e2eSpec("closed-members.yaml")).filter(
    (finding) => finding.check === "page.access" && finding.page === null,
  );
  expect(logins.map((finding) => [finding.viewport, finding.status])).toEqual(
    VIEWPORTS.map((viewport) => [viewport, "pass"]),
  );
  expect(run.stdout.match(/^Login closed-members › login · \w+ {2}got in/gm)).toHaveLength(2);

  // The debug page logs the token and Basic auth's pair: its error is reported, the secrets hidden.
  const debugErrors = findingsOf(summary, e2eSpec("closed-token-header.yaml")).filter(
    (finding) => finding.check === "page.errors" && finding.page === "debug",
  );
  expect(debugErrors.map((finding) => finding.status)).toEqual(["warn", "warn"]);
  expect(debugErrors[0]!.message).toContain("debug: preview token «redacted», «redacted», «redacted»");

  expect(existsSync(join(out, "audit-report.html"))).toBe(true);
  // The saved artifacts hold every page, with the secrets redacted, and no storage state (a login's, or the spec's file).
  expect(readdirSync(join(out, "artifacts", "pages")).length).toBeGreaterThan(10);
  expect(filesUnder(join(out, "artifacts")).filter((file) => file.text.includes('"origins"'))).toEqual([]);
  expect(filesUnder(join(out, "artifacts")).some((file) => file.text.includes("redacted"))).toBe(true);
  expect(leaks(run, out)).toEqual([]);
  // The session the login ended with went with the run's work folder.
  const workFolders = readdirSync(temporary).filter(
    (name) => name.startsWith("setup-audit-") && existsSync(join(temporary, name, "logins")),
  );
  const kept = workFolders.flatMap((name) =>
    filesUnder(join(temporary, name, "logins")).filter((file) => file.text.includes(sessionFor(user))),
  );
  rmSync(temporary, { recursive: true, force: true });
  expect(kept).toEqual([]);

  // The other origin saw every page reach it, under both its names, and never a secret.
  const { received } = (await (
    await fetch(`http://127.0.0.1:${FIXTURE_PORTS.elsewhere}/__fixture/received`)
  ).json()) as { received: ElsewhereRequest[] };
  const otherHost = `127.0.0.1:${FIXTURE_PORTS.elsewhere}`;
  const otherPort = `localhost:${FIXTURE_PORTS.elsewhere}`;
  for (const from of ["Basic home", "Token home", "Token pricing", "Account"]) {
    const reached = received.filter((request) => request.path.includes(`from=${encodeURIComponent(from)}`));
    expect(new Set(reached.map((request) => request.host)), from).toEqual(new Set([otherHost, otherPort]));
  }
  expect(received.filter((request) => request.authorization !== null || request.previewToken !== null)).toEqual([]);
  // A cookie is sent to every port of its host by the browser's rules: another host gets none.
  expect(received.filter((request) => request.host === otherHost && request.cookie !== null)).toEqual([]);
});

test("every picture of a field typed from a variable masks it on both viewports: the screenshot, the view screens of the page and of its variation, and the side-by-side picture; the code echoed back and the session a page shows are masked too; its code sent as a property and a session a redirect carries show in no output", async () => {
  // A login, two pages and a variation on both viewports, then the unmasked pictures to compare with.
  test.slow();
  const out = outDir("pictures");
  const spec = e2eSpec("closed-coupon.yaml");
  const run = await runCli(["run", spec, "--out", out, "--single-file", "--save-artifacts"], SECRETS_ENV);
  expect(run.code, run.stderr + run.stdout).toBe(0);
  expect(
    findingsOf(readSummary(out), spec)
      .filter((finding) => finding.check === "events.expected")
      .map((finding) => [finding.page, finding.viewport, finding.status])
      .sort(),
  ).toEqual(["coupon", "welcome"].flatMap((page) => VIEWPORTS.map((viewport) => [page, viewport, "pass"])).sort());
  // The session a redirect carried in its URL, and the coupon code sent as a property, were gathered and redacted where saved.
  for (const saved of savedPages(out, spec, "welcome")) {
    expect(saved.finalUrl, saved.viewport).toBe(`${SITE}/members/account?ticket=«redacted»`);
    expect(
      saved.navigations.some((navigation) => JSON.stringify(navigation).includes("ticket=«redacted»")),
      saved.viewport,
    ).toBe(true);
  }
  // The page as it is and its variation, on each viewport.
  const applied = savedPages(out, spec, "coupon").map(
    (saved) => saved.calls.find((call) => call.name === "coupon_applied")?.properties,
  );
  expect(applied).toEqual([1, 2, 3, 4].map(() => ({ code: "«redacted»" })));
  const folder = join(out, "screenshots", "closed-coupon", "staging");
  const pictures = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".png"));
  const typed = await typedCoupons();
  for (const viewport of VIEWPORTS) {
    const ofViewport = pictures.filter((name) => basename(name).startsWith(`coupon.${viewport}.`)).sort();
    // The screenshot, the page's first screen and the variation's.
    expect(
      ofViewport.map((name) => name.replace(/^(views\/coupon\.\w+)\.[^.]+\.png$/, "$1.VARIATION.png")).sort(),
      viewport,
    ).toEqual(
      [`coupon.${viewport}.png`, `views/coupon.${viewport}.VARIATION.png`, `views/coupon.${viewport}.png`].sort(),
    );
    const unmasked = typed.get(viewport)!;
    for (const name of ofViewport) expectMasked(join(folder, name), unmasked.typed, unmasked.box);
    // The code the page echoes once applied (after the journey: the screenshot), and the session the account page shows.
    expectMasked(join(folder, `coupon.${viewport}.png`), unmasked.typed, unmasked.echo);
    expectMasked(join(folder, `welcome.${viewport}.png`), unmasked.account, unmasked.session);
  }
  // The side-by-side picture of each viewport is made of those screens, scaled to its columns: the mask's colour is in it (a page pictured without a mask has none).
  const resultsDir = join(out, "allure-results");
  const results = readdirSync(resultsDir)
    .filter((name) => name.endsWith("-result.json"))
    .map(
      (name) =>
        JSON.parse(readFileSync(join(resultsDir, name), "utf8")) as {
          name: string;
          steps: { attachments: { name: string; source: string }[] }[];
          attachments: { name: string; source: string }[];
        },
    );
  for (const viewport of VIEWPORTS) {
    const result = results.find((candidate) => candidate.name === `Coupon heading colour · variations · ${viewport}`)!;
    const sideBySide = [...result.attachments, ...result.steps.flatMap((step) => step.attachments)].filter(
      (attachment) => attachment.name === "control and variations side by side",
    );
    expect(sideBySide, viewport).toHaveLength(1);
    const png = PNG.sync.read(readFileSync(join(resultsDir, sideBySide[0]!.source)));
    const masked = pixelsIn(png, { x: 0, y: 0, width: png.width, height: png.height }).filter(
      (pixel) => pixel.join() === MASK.join(),
    ).length;
    expect(masked, viewport).toBeGreaterThan(200);
    const unmasked = typed.get(viewport)!.typed;
    expect(
      pixelsIn(unmasked, { x: 0, y: 0, width: unmasked.width, height: unmasked.height }).filter(
        (pixel) => pixel.join() === MASK.join(),
      ),
      viewport,
    ).toEqual([]);
  }
  expect(leaks(run, out)).toEqual([]);
});

test("a wrong password keeps the audit out: the login fails on each viewport and its pages skip, each Basic-auth page fails, exit 1", async () => {
  const out = outDir("wrong");
  const wrong = "not-the-Password-1";
  const run = await runCli(
    ["run", e2eSpec("closed-members.yaml"), e2eSpec("closed-basic.yaml"), e2eSpec("closed-coupon.yaml"), "--out", out],
    { ...SECRETS_ENV, CLOSED_PASSWORD: wrong, CLOSED_COUPON: "x9" },
    // With its report: no file it wrote may show a secret.
    { htmlReport: true },
  );
  expect(run.code, run.stderr + run.stdout).toBe(1);
  // A secret too short to hide is named at the start, where the spec names it; its value never.
  expect(run.stderr).toContain(
    `setup-audit: warning: CLOSED_COUPON holds fewer than 4 characters, too few to hide from the outputs without hiding ordinary text: they may show it (${e2eSpec("closed-coupon.yaml")}: pages[1].steps[0].fill.valueEnv). Use a longer secret.`,
  );
  const summary = readSummary(out);

  const members = findingsOf(summary, e2eSpec("closed-members.yaml"));
  const logins = members.filter((finding) => finding.check === "page.access" && finding.page === null);
  expect(logins.map((finding) => [finding.viewport, finding.status])).toEqual(
    VIEWPORTS.map((viewport) => [viewport, "fail"]),
  );
  for (const login of logins) {
    expect(login.message).toContain(
      `The login did not get in on ${login.viewport}: step 4 failed (waitFor "#account-menu" failed`,
    );
    expect(login.message).toContain(
      "Check the steps' selectors against the login form, and that CLOSED_USER and CLOSED_PASSWORD hold valid credentials for staging.",
    );
  }
  // Every other finding of its pages is a skip that says why.
  const pageFindings = members.filter((finding) => finding.page !== null);
  expect(pageFindings.length).toBeGreaterThan(20);
  for (const finding of pageFindings)
    expect([finding.check, finding.status, finding.message]).toEqual([
      finding.check,
      "skip",
      expect.stringMatching(/the login did not get in|kept the audit out/),
    ]);

  const basic = findingsOf(summary, e2eSpec("closed-basic.yaml"));
  const access = basic.filter((finding) => finding.check === "page.access");
  expect(access.map((finding) => [finding.page, finding.viewport, finding.status]).sort()).toEqual(
    ["home", "pricing"].flatMap((page) => VIEWPORTS.map((viewport) => [page, viewport, "fail"])).sort(),
  );
  expect(access[0]!.message).toContain(
    "answered HTTP 401. Check that the secrets of environments.staging.auth (CLOSED_USER and CLOSED_PASSWORD) are current for staging",
  );
  expect(
    basic
      .filter((finding) => finding.page !== null && finding.check !== "page.access")
      .every((finding) => finding.status === "skip" && finding.message.includes("kept the audit out")),
  ).toBe(true);

  expect(leaks(run, out, [wrong, `${user}:${wrong}`])).toEqual([]);
});

test("without auth, each closed site keeps the audit out in its own way: refused, forbidden, or a login wall", async () => {
  const out = outDir("none");
  const run = await runCli(["run", e2eSpec("closed-no-auth.yaml"), "--out", out, "--viewport", "desktop"]);
  expect(run.code, run.stderr + run.stdout).toBe(1);
  const access = findingsOf(readSummary(out), e2eSpec("closed-no-auth.yaml")).filter(
    (finding) => finding.check === "page.access",
  );
  expect(access.map((finding) => [finding.page, finding.status])).toEqual([
    ["basic", "fail"],
    ["token", "fail"],
    ["account", "warn"],
  ]);
  expect(access[0]!.message).toContain("it asks for HTTP authentication, and the audit had no credentials for it");
  expect(access[1]!.message).toContain("it answered HTTP 403. If the site is closed, add environments.staging.auth");
  expect(access[2]!.message).toContain(
    `was redirected to ${SITE}/members/login, which shows a password field: it looks like a login wall`,
  );
});

test.describe("the spec names variables, never secrets", () => {
  test("a literal secret where a variable's name belongs exits 2 at its file:line:col, never echoing it", async () => {
    const dir = outDir("literal");
    const file = join(dir, "literal.yaml");
    writeFileSync(
      file,
      readFileSync(e2eSpec("closed-basic.yaml"), "utf8").replace(
        "passwordEnv: CLOSED_PASSWORD",
        `passwordEnv: "${password}"`,
      ),
    );
    for (const command of ["validate", "run"]) {
      const run = await runCli([command, file, "--out", dir].slice(0, command === "run" ? 4 : 2));
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(
        `${file}:10:55 environments.staging.auth.basic.passwordEnv: must be the NAME of an environment variable that holds the password (like STAGING_PASSWORD), never the password itself`,
      );
      expect(run.stdout + run.stderr).not.toContain(password);
    }
  });

  test("validate needs no variable set; run exits 2 naming the unset or empty one, where the spec names it, and what to do", async () => {
    const env = { CLOSED_USER: "", CLOSED_PASSWORD: "", CLOSED_TOKEN: "" };
    expect((await runCli(["validate", e2eSpec("closed-members.yaml")], env)).code).toBe(0);
    const run = await runCli(["run", e2eSpec("closed-members.yaml"), "--out", outDir("unset")], {
      ...env,
      CLOSED_USER: user,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `CLOSED_PASSWORD is not set, or empty: the spec names it for its secrets (${e2eSpec("closed-members.yaml")}: environments.staging.auth.login.steps[1].fill.valueEnv).`,
    );
    expect(run.stderr).toContain("Set it to the secret in the run's environment");
    expect(run.stdout).not.toContain("Auditing");
  });
});

test("init --basic-env gets into a Basic-auth site and writes the auth section with the variables' names; its spec passes", async () => {
  const dir = outDir("init");
  const file = join(dir, "basic.yaml");
  // The three inits side by side: the one with the variables' names, one without, one with the literal secret.
  const [init, refused, literal] = await Promise.all([
    runCli(
      ["init", `${SITE}/basic/`, "--basic-env", "CLOSED_USER:CLOSED_PASSWORD", "--env", "staging", "--out", file],
      SECRETS_ENV,
    ),
    runCli(["init", `${SITE}/basic/`, "--out", join(dir, "refused.yaml")]),
    runCli(["init", `${SITE}/basic/`, "--basic-env", `${user}:${password}`, "--out", join(dir, "literal.yaml")]),
  ]);
  expect(init.code, init.stderr + init.stdout).toBe(0);
  const text = readFileSync(file, "utf8");
  expect(text).toContain("    auth:\n      basic: { usernameEnv: CLOSED_USER, passwordEnv: CLOSED_PASSWORD }");
  expect(text).toContain("track: [basic_home_viewed]");
  expect(text).not.toContain(password);
  expect(refused.code).toBe(3);
  expect(refused.stderr).toContain("run init again with --basic-env USER_VAR:PASSWORD_VAR");
  expect(literal.code).toBe(2);
  expect(literal.stderr).not.toContain(password);

  const run = await runCli(["run", file, "--out", join(dir, "out")], SECRETS_ENV);
  expect(run.code, run.stderr + run.stdout).toBe(0);
  const access = readSummary(join(dir, "out")).findings.filter((finding) => finding.check === "page.access");
  expect(access.map((finding) => [finding.viewport, finding.status])).toEqual(
    VIEWPORTS.map((viewport) => [viewport, "pass"]),
  );
});
