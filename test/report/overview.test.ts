import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import type { RecordedRun } from "../../src/results/changes.js";
import type { ChangedFinding, RunSummary, SpecRun } from "../../src/results/summary.js";
import type { Checklist, Finding, Status } from "../../src/findings/finding.js";
import { overviewParts, withOverview, type OverviewSources } from "../../src/report/overview/overview.js";
import { readOverviewSources } from "../../src/report/overview/sources.js";
import { rollUpChecklist } from "../../src/results/checklist.js";
import { scratchDir } from "../support/scratch.js";
import { checkReasons } from "../../src/results/check-reasons.js";
import { findingWith } from "../support/artifacts.js";

const found = (status: Status, where: Partial<Finding> = {}): Finding =>
  findingWith({
    status,
    page: "home",
    viewport: "desktop",
    message: "Loaded.",
    ...where,
  });

const checklistOf = (status: Status, changed: Partial<Checklist> = {}): Checklist => ({
  workspace: status,
  projectKeyOrDomain: status,
  goalEventMatch: status,
  mobileAndDesktop: status,
  noWarnings: status,
  ...changed,
});

const runOf = (checklist: Checklist, where: Partial<SpecRun> = {}): SpecRun => ({
  spec: "audits/shop.yaml",
  project: "Demo shop",
  environment: "staging",
  verdict: Object.values(checklist).includes("fail") ? "fail" : "pass",
  collect: "send",
  checklist,
  ...where,
});

const summaryOf = (
  findings: Finding[],
  runs: SpecRun[] = [runOf(checklistOf("pass"))],
  changes: RunSummary["changes"] = null,
): RunSummary => ({
  version: 1,
  verdict: findings.some((finding) => finding.status === "fail") ? "fail" : "pass",
  startedAt: "2026-11-28T08:12:11.126Z",
  durationMs: 25_800,
  runs,
  findings,
  checks: checkReasons(findings),
  calls: [],
  changes,
});

const recorded = (startedAt: string, checklist: Checklist, where: Partial<RecordedRun> = {}): RecordedRun => ({
  startedAt,
  spec: "audits/shop.yaml",
  environment: "staging",
  verdict: "pass",
  checklist,
  findings: {},
  ...where,
});

/** The overview's page as HTML. */
function overviewOf(summary: RunSummary, more: Partial<OverviewSources> = {}): string {
  return overviewParts({ summary, history: [], pictures: [], ...more }).body;
}

/** The overview's text, tags dropped and entities read, spaces collapsed. */
function textOf(html: string): string {
  const text = html.replace(/<script>[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ");
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** The text of the section under the heading `heading`, up to the next one. */
function sectionText(html: string, heading: string): string {
  const start = html.indexOf(`<h2>${heading}</h2>`);
  expect(start, `section "${heading}"`).toBeGreaterThanOrEqual(0);
  const end = html.indexOf("<h2>", start + 4);
  return textOf(html.slice(start, end < 0 ? undefined : end));
}

test("a pass shows the verdict, the five checklist items with their status, no failed check and nothing to act on", () => {
  const html = overviewOf(summaryOf([found("pass"), found("pass", { viewport: "mobile" })]));
  const text = textOf(html);
  expect(text).toContain("Verdict: PASS");
  expect(text).toContain("PASS — 2 passed, 0 warnings, 0 failed, 0 skipped (25.8 s)");
  expect(text).toContain("Demo shop (staging) pass");
  expect(text).toContain("Spec audits/shop.yaml · environment staging");
  const items = [...html.matchAll(/<li><span class="sa-status sa-(\w+)">[^<]*<\/span> ([^<]+)<\/li>/g)].map(
    ([, status, label]) => [status, label],
  );
  expect(items).toEqual([
    ["pass", "Correct workspace"],
    ["pass", "Correct project key or domain"],
    ["pass", "Goals and events match"],
    ["pass", "Mobile and desktop both checked"],
    ["pass", "No bot/SRM or dropped-event warning"],
  ]);
  expect(text).not.toContain("failed checks");
  expect(sectionText(html, "Findings to act on").trim()).toBe("Findings to act on None: no check failed or warned.");
});

test("a failed run's verdict names every failed check's id with its count first, and groups the findings to act on by check, failures before warnings, one message once with every place it was found", () => {
  const summary = summaryOf(
    [
      found("warn", { check: "page.errors", message: "A script error." }),
      found("fail", {
        check: "sdk.order",
        page: "cart",
        message: "1 call ran before `expsvc` existed. Load the SDK first.",
      }),
      found("fail", {
        check: "sdk.order",
        page: "cart",
        viewport: "mobile",
        message: "1 call ran before `expsvc` existed. Load the SDK first.",
      }),
      found("fail", { check: "page.load", page: "checkout", message: "The page did not load." }),
      found("pass"),
    ],
    [runOf(checklistOf("pass", { projectKeyOrDomain: "fail" }))],
  );
  const html = overviewOf(summary);
  expect(textOf(html)).toContain("Verdict: FAIL");
  expect(textOf(html)).toContain(
    "FAIL — failed checks: page.load (1), sdk.order (2) — 1 passed, 1 warnings, 3 failed, 0 skipped (25.8 s)",
  );
  const actOn = sectionText(html, "Findings to act on");
  // Registry order among the failures (page.load before sdk.order), then the check that only warns.
  expect(
    [...actOn.matchAll(/(fail|warn) [^.]*? (page\.load|sdk\.order|page\.errors) (\d+) finding\(s\)/g)].map(
      ([, status, id, count]) => `${status} ${id} ${count}`,
    ),
  ).toEqual(["fail page.load 1", "fail sdk.order 2", "warn page.errors 1"]);
  expect(actOn).toContain("cart · desktop; cart · mobile 1 call ran before expsvc existed. Load the SDK first.");
  expect(actOn.match(/1 call ran before/g)).toHaveLength(1);
  expect(actOn).toContain("Why it matters:");
  expect(html).toContain("<code>expsvc</code>");
});

test("a pass with checklist items not checked says so in the verdict line, and shows them as not checked", () => {
  const summary = summaryOf(
    [
      found("pass"),
      found("skip", {
        check: "api.auth",
        page: null,
        viewport: null,
        message: "The spec has no api section. Add one.",
      }),
    ],
    [runOf(checklistOf("pass", { workspace: "skip" }))],
  );
  const text = textOf(overviewOf(summary));
  expect(text).toContain(
    "PASS — 1 of 5 checklist items not checked: the spec has no api section — 1 passed, 0 warnings, 0 failed, 1 skipped (25.8 s)",
  );
  expect(text).toContain("not checked Correct workspace");
});

/** The first screen's text: the verdict and the changes line. */
function verdictAndChanges(summary: RunSummary): string {
  const html = overviewOf(summary);
  return textOf(html.slice(0, html.indexOf('<div class="sa-runs">')));
}

/** The verdict's sentence, as text. */
function verdictText(html: string): string {
  return textOf(html.match(/<p class="sa-verdict-line">([\s\S]*?)<\/p>/)![1]!);
}

/** The checklist items of the first spec run: [status, label]. */
function checklistItems(html: string): string[][] {
  const list = html.match(/<ul class="sa-checklist">[\s\S]*?<\/ul>/)![0];
  return [...list.matchAll(/<li><span class="sa-status sa-(\w+)">[^<]*<\/span> ([^<]+)<\/li>/g)].map(
    ([, status, label]) => [status!, label!],
  );
}

test("a failed run's verdict sentence names the failed checks before the checklist items not checked; with no failure, the checks that warned", () => {
  const notChecked = found("skip", {
    check: "api.auth",
    page: null,
    viewport: null,
    message: "The spec has no api section. Add one.",
  });
  const failed = summaryOf(
    [
      notChecked,
      found("fail", { check: "sdk.order", page: "cart" }),
      found("fail", { check: "page.load", page: "checkout" }),
      found("fail", { check: "sdk.order", page: "cart", viewport: "mobile" }),
      found("warn", { check: "page.errors" }),
    ],
    [runOf(checklistOf("pass", { workspace: "skip", projectKeyOrDomain: "fail" }))],
  );
  expect(verdictText(overviewOf(failed))).toBe(
    "FAIL — failed checks: page.load (1), sdk.order (2) — 1 of 5 checklist items not checked: the spec has no api section — 0 passed, 1 warnings, 3 failed, 1 skipped (25.8 s)",
  );
  const warned = summaryOf(
    [notChecked, found("warn", { check: "page.errors" })],
    [runOf(checklistOf("pass", { workspace: "skip" }))],
  );
  expect(verdictText(overviewOf(warned))).toBe(
    "PASS — checks that warned: page.errors (1) — 1 of 5 checklist items not checked: the spec has no api section — 0 passed, 1 warnings, 0 failed, 1 skipped (25.8 s)",
  );
});

test("a spec without goals shows Goals and events match not checked however its expected events fared, unless they warn or fail; summary.json's roll-up stays as the contract says", () => {
  const expected = (status: Status, viewport: string) => found(status, { check: "events.expected", viewport });
  const noGoals = found("skip", {
    check: "api.goals",
    page: null,
    viewport: null,
    message: "The spec defines no goals.",
  });
  const summaryWith = (findings: Finding[]) =>
    summaryOf(findings, [runOf(checklistOf("pass", { goalEventMatch: rollUpChecklist(findings).goalEventMatch }))]);

  const fired = summaryWith([noGoals, expected("pass", "desktop"), expected("pass", "mobile")]);
  // The roll-up (summary.json's checklist): the worst status of the feeding findings.
  expect(fired.runs[0]!.checklist.goalEventMatch).toBe("pass");
  const html = overviewOf(fired);
  expect(checklistItems(html)[2]).toEqual(["skip", "Goals and events match"]);
  expect(verdictText(html)).toBe(
    "PASS — 1 of 5 checklist items not checked: the spec defines no goals — 2 passed, 0 warnings, 0 failed, 1 skipped (25.8 s)",
  );
  // Goals whose every judgement skipped were not judged either.
  const keptOut = summaryWith([
    found("skip", { check: "goals.match", page: null, goal: "Signup", message: "Not judged on desktop." }),
    expected("pass", "desktop"),
  ]);
  expect(checklistItems(overviewOf(keptOut))[2]).toEqual(["skip", "Goals and events match"]);
  expect(verdictText(overviewOf(keptOut))).toContain("1 of 5 checklist items not checked: no goal was judged —");
  // A judged goal passes it; an expected event that did not fire fails it, goals or not.
  const judged = summaryWith([
    found("pass", { check: "goals.match", page: null, goal: "Signup" }),
    expected("pass", "desktop"),
  ]);
  expect(checklistItems(overviewOf(judged))[2]).toEqual(["pass", "Goals and events match"]);
  const missing = summaryWith([noGoals, expected("fail", "desktop")]);
  expect(checklistItems(overviewOf(missing))[2]).toEqual(["fail", "Goals and events match"]);
});

/** A finding's key and status now, as `changes` lists it. */
const changedOf = (status: Status, where: Partial<Finding> = {}): ChangedFinding => {
  const { check, spec, page, viewport, goal, experiment, variation } = found(status, where);
  return { check, spec, environment: "staging", page, viewport, goal, experiment, variation, status };
};

const comparedWith = { startedAt: "2026-11-27T03:00:41.000Z", verdict: "fail" as const };

test("the changes line counts the persisting warnings as warnings, not as failing, or that there was nothing to compare with", () => {
  const changes = {
    comparedWith,
    new: [changedOf("fail", { check: "sdk.order", page: "cart" })],
    worse: [],
    resolved: [changedOf("pass", { viewport: "mobile" })],
    persisting: 3,
    persistingWarnings: 2,
  };
  const findings = [found("fail", { check: "sdk.order", page: "cart" })];
  expect(verdictAndChanges(summaryOf(findings, undefined, changes))).toContain(
    "Since 2026-11-27 03:00 UTC: 1 new, 0 worse, 1 resolved, 1 still failing, 2 still warning.",
  );
  // A summary written before persisting warnings were counted apart does not guess.
  const { persistingWarnings: _counted, ...older } = changes;
  expect(verdictAndChanges(summaryOf(findings, undefined, older))).toContain(
    "Since 2026-11-27 03:00 UTC: 1 new, 0 worse, 1 resolved, 3 still failing or warning.",
  );
  expect(verdictAndChanges(summaryOf([found("fail")]))).toContain(
    "Changes: no earlier run of these specs in this output folder's history to compare with.",
  );
});

test("what is new, worse and resolved is named by check, place and status now, a warning as a warning: the first ten of each, then how many more", () => {
  const newOnes = Array.from({ length: 12 }, (_, index) =>
    changedOf(index % 4 === 0 ? "warn" : "fail", { check: "sdk.order", page: `page-${index}` }),
  );
  const changes = {
    comparedWith,
    new: newOnes,
    worse: [changedOf("fail", { check: "page.errors", viewport: "mobile" })],
    resolved: [
      changedOf("pass", { check: "goals.match", page: null, goal: "Signup", viewport: "mobile" }),
      changedOf("pass", { check: "viewports.coverage", page: null, viewport: null }),
    ],
    persisting: 0,
  };
  const html = overviewOf(summaryOf([found("pass")], undefined, changes));
  const section = sectionText(html, "Changes since 2026-11-27 03:00 UTC");
  expect(section).toContain(
    "New: 9 fail, 3 warn warn sdk.order page-0 · desktop fail sdk.order page-1 · desktop fail sdk.order page-2 · desktop",
  );
  expect(section).toContain("fail sdk.order page-9 · desktop And 2 more: the detailed report lists every finding.");
  expect(section).not.toContain("page-10");
  expect(section).toContain("Worse: 1 fail fail page.errors home · mobile");
  expect(section).toContain("Resolved: 2 pass goals.match Signup · mobile pass viewports.coverage the spec");
  // With several specs, each names its spec and environment.
  const runs = [runOf(checklistOf("pass")), runOf(checklistOf("pass"), { spec: "audits/blog.yaml", project: "Blog" })];
  const several = overviewOf(summaryOf([found("pass")], runs, { ...changes, new: [], resolved: [] }));
  expect(sectionText(several, "Changes since 2026-11-27 03:00 UTC")).toContain(
    "fail page.errors audits/shop.yaml (staging) · home · mobile",
  );
  // Nothing changed, or nothing to compare with: no section.
  const unchanged = { ...changes, new: [], worse: [], resolved: [] };
  expect(overviewOf(summaryOf([found("pass")], undefined, unchanged))).not.toContain("<h2>Changes since");
  expect(overviewOf(summaryOf([found("pass")]))).not.toContain("<h2>Changes since");
});

test("without history the trend says none is kept; with it, one cell per run and item, oldest first, each titled with its run and status", () => {
  const summary = summaryOf([found("pass")]);
  expect(sectionText(overviewOf(summary), "The checklist over the kept runs")).toContain(
    "Demo shop (staging): no run kept in the history yet",
  );
  const history = [
    recorded("2026-11-26T03:00:00.000Z", checklistOf("fail")),
    recorded("2026-11-27T03:00:00.000Z", checklistOf("pass", { noWarnings: "warn" })),
    recorded("2026-11-27T03:00:00.000Z", checklistOf("fail"), { spec: "audits/other.yaml" }),
    recorded("2026-11-28T08:12:11.126Z", checklistOf("pass")),
  ];
  const html = overviewOf(summary, { history });
  const svg = html.match(/<svg class="sa-trend-svg"[\s\S]*?<\/svg>/)![0];
  const titles = [...svg.matchAll(/<title>([^<]+)<\/title>/g)].map(([, title]) => title);
  expect(titles).toHaveLength(15);
  expect(titles.slice(0, 3)).toEqual([
    "2026-11-26 03:00 UTC: Correct workspace fail",
    "2026-11-27 03:00 UTC: Correct workspace pass",
    "2026-11-28 08:12 UTC: Correct workspace pass",
  ]);
  expect(titles[13]).toBe("2026-11-27 03:00 UTC: No bot/SRM or dropped-event warning warn");
  expect(svg).toContain(
    'role="img" aria-label="Demo shop (staging), checklist over 3 run(s); last run: Correct workspace pass,',
  );
  expect(textOf(html)).toContain("Demo shop (staging): 3 run(s), 2026-11-26 03:00 UTC to 2026-11-28 08:12 UTC");
});

test("with several specs, each spec × environment gets its checklist, its grid and its trend, and a finding names its spec", () => {
  const findings = [
    found("pass"),
    found("fail", {
      spec: "audits/blog.yaml",
      check: "sdk.present",
      page: "post",
      viewport: "mobile",
      message: "No SDK.",
    }),
    found("pass", { spec: "audits/blog.yaml", page: "post", viewport: "desktop" }),
  ];
  const runs = [
    runOf(checklistOf("pass")),
    runOf(checklistOf("pass", { projectKeyOrDomain: "fail" }), {
      spec: "audits/blog.yaml",
      project: "Blog",
      environment: "production",
    }),
  ];
  const html = overviewOf(summaryOf(findings, runs));
  const text = textOf(html);
  expect(
    [...text.matchAll(/(\S+ \(\w+\)) (pass|fail) Spec (\S+) · environment (\w+)/g)].map(
      ([, title, verdict, spec, environment]) => [title, verdict, spec, environment],
    ),
  ).toEqual([
    ["shop (staging)", "pass", "audits/shop.yaml", "staging"],
    ["Blog (production)", "fail", "audits/blog.yaml", "production"],
  ]);
  expect(html.match(/<ul class="sa-checklist">/g)).toHaveLength(2);
  expect(text).toContain("audits/blog.yaml · post · mobile No SDK.");
  const grid = sectionText(html, "Pages × viewports");
  expect(grid).toContain("Demo shop (staging): the worst status of each page × viewport page desktop home pass Blog");
  expect(grid).toContain(
    "Blog (production): the worst status of each page × viewport page mobile desktop post fail pass",
  );
  expect(sectionText(html, "The checklist over the kept runs")).toContain(
    "Blog (production): no run kept in the history yet",
  );
});

test("the grid shows each page × viewport's worst status, its variations' findings included, and a viewport a page was not audited on", () => {
  const html = overviewOf(
    summaryOf([
      found("pass"),
      found("warn", { check: "page.errors" }),
      found("skip", { page: "pricing", check: "sdk.order" }),
      found("fail", {
        page: "pricing",
        viewport: "mobile",
        check: "experiment.variation",
        experiment: "CTA",
        variation: "Long",
      }),
      found("pass", { page: "pricing", viewport: "mobile" }),
    ]),
  );
  expect(sectionText(html, "Pages × viewports")).toContain(
    "page desktop mobile home warn not audited pricing not checked fail",
  );
});

test("tracking-plan coverage lists the planned events fired and never fired, and each plan check with its worst status; nothing without a plan", () => {
  const coverage = found("warn", {
    check: "plan.coverage",
    page: null,
    viewport: null,
    message: "1 of 3 planned events fired on no audited page × viewport: Refund.",
    evidence: { seen: ["Order Completed", "Cart Viewed"], unseen: ["Refund"], planned: 3 },
  });
  const judged = [
    found("pass", { check: "plan.properties", evidence: { judgedCalls: 3, violations: [] } }),
    found("skip", { check: "plan.events", page: "about" }),
  ];
  const html = overviewOf(summaryOf([coverage, ...judged]));
  const section = sectionText(html, "Tracking-plan coverage");
  expect(section).toContain(
    "warn Demo shop (staging) 2 of 3 planned events fired on an audited page. Fired Order Completed , Cart Viewed Never fired Refund",
  );
  expect(section).toContain("warn plan.coverage 1 of 3 planned events fired on no audited page × viewport: Refund.");
  expect(overviewOf(summaryOf([found("pass")]))).not.toContain("Tracking-plan coverage");
});

test("the tracking-plan box shows the worst status of its checks, counts the calls plan.properties judged and the pages × viewports each check judged", () => {
  const coverage = found("pass", {
    check: "plan.coverage",
    page: null,
    viewport: null,
    message: "All 2 planned events fired on an audited page.",
    evidence: { seen: ["Order Completed", "Cart Viewed"], unseen: [], planned: 2 },
  });
  const violation = (callIndex: number) => ({ event: "Order Completed", callIndex, keyword: "type" });
  const judged = [
    found("pass", { check: "plan.properties", evidence: { judgedCalls: 3, violations: [] } }),
    found("fail", {
      check: "plan.properties",
      viewport: "mobile",
      // Two violations of one call, and one of another: two calls break the plan.
      evidence: { judgedCalls: 4, violations: [violation(1), violation(1), violation(4)] },
    }),
    found("skip", { check: "plan.properties", page: "about" }),
    found("pass", { check: "plan.events" }),
    found("warn", { check: "plan.events", viewport: "mobile" }),
  ];
  const html = overviewOf(summaryOf([coverage, ...judged]));
  const section = sectionText(html, "Tracking-plan coverage");
  expect(section).toContain("fail Demo shop (staging) 2 of 2 planned events fired");
  expect(section).toContain(
    "fail plan.properties 7 planned calls judged, 2 of them breaking the plan; pages × viewports: 1 fail, 1 pass, 1 not checked.",
  );
  expect(section).toContain("warn plan.events pages × viewports: 1 warn, 1 pass.");
  expect(section).toContain("pass plan.coverage All 2 planned events fired on an audited page.");
});

test("what happened before consent lists each page × viewport's consent findings together; nothing without consent", () => {
  const html = overviewOf(
    summaryOf([
      found("pass", { check: "consent.banner", message: "The banner showed at 300 ms." }),
      found("pass", { check: "consent.banner", viewport: "mobile", message: "The banner showed at 310 ms." }),
      found("fail", {
        check: "consent.before",
        message: "Before consent was given, / sent 2 request(s) to 1 known tracker(s).",
      }),
      found("pass", { check: "consent.before", viewport: "mobile", message: "Nothing was sent." }),
      found("pass", { check: "consent.reject", message: "Refused: nothing sent.", evidence: { unit: "reject" } }),
    ]),
  );
  const rows = [
    ...sectionText(html, "What happened before consent").matchAll(
      /(home · \w+) (consent\.\w+)( \(reject\))? (pass|fail)/g,
    ),
  ].map(([, where, check, unit, status]) => `${where} ${check}${unit ?? ""} ${status}`);
  expect(rows).toEqual([
    "home · desktop consent.banner pass",
    "home · desktop consent.before fail",
    "home · desktop consent.reject (reject) pass",
    "home · mobile consent.banner pass",
    "home · mobile consent.before pass",
  ]);
  expect(overviewOf(summaryOf([found("pass")]))).not.toContain("before consent");
});

test("a message's code spans show as code; an odd backtick leaves the message as text", () => {
  const html = overviewOf(
    summaryOf([
      found("fail", { message: "Use `track` not `trak`." }),
      found("fail", { check: "sdk.order", message: "A ` alone <b>." }),
    ]),
  );
  expect(html).toContain("<p>Use <code>track</code> not <code>trak</code>.</p>");
  expect(html).toContain("<p>A ` alone &lt;b&gt;.</p>");
});

test("the experiments' pictures are inline PNGs with their captions; nothing without pictures", () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
  const html = overviewOf(summaryOf([found("pass")]), {
    pictures: [
      {
        title: "CTA · variations · desktop",
        target: "Demo shop (staging)",
        images: [{ caption: "control and variations side by side", png }],
      },
    ],
  });
  expect(html).toContain(
    '<img src="data:image/png;base64,iVBORw==" alt="CTA · variations · desktop: control and variations side by side">',
  );
  expect(textOf(html)).toContain("CTA · variations · desktop — Demo shop (staging)");
  expect(overviewOf(summaryOf([found("pass")]))).not.toContain("<img");
});

test("every captured string is escaped: a hostile message, page id, project, event name, picture title or spec cannot open a tag or leave an attribute", () => {
  const hostile = `"><img src=x onerror=alert(1)><script>alert('x')</script>&`;
  const findings = [
    found("fail", { page: hostile, message: `Fired ${hostile} on https://shop.test/?q=${hostile}` }),
    found("fail", {
      check: "plan.coverage",
      page: null,
      viewport: null,
      spec: hostile,
      message: hostile,
      evidence: { seen: [hostile], unseen: [hostile] },
    }),
    found("fail", { check: "consent.before", viewport: "mobile", message: hostile, evidence: { unit: hostile } }),
  ];
  const runs = [
    runOf(checklistOf("fail"), { project: hostile, environment: hostile }),
    runOf(checklistOf("fail"), { spec: hostile, project: hostile }),
  ];
  const history = [recorded("2026-11-28T08:12:11.126Z", checklistOf("fail"), { environment: hostile })];
  const pictures = [{ title: hostile, target: hostile, images: [{ caption: hostile, png: Buffer.from("x") }] }];
  const html = overviewOf(summaryOf(findings, runs), { history, pictures });
  expect(html).not.toContain("<img src=x");
  expect(html).not.toContain("<script>alert");
  expect(html).not.toContain(`"><img`);
  expect(html).toContain(
    "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;",
  );
  // The only script is the overview's own, the only images the pictures.
  expect(html.match(/<script/g)).toHaveLength(1);
  expect(html.match(/<img /g)).toHaveLength(1);
  expect(textOf(html)).toContain(`Fired ${hostile} on https://shop.test/?q=${hostile}`);
});

test("the overview goes first in the report's body, its style at the end of the head; a page without them is refused", () => {
  const parts = { head: "<style>s</style>", body: "<main>o</main>" };
  expect(
    withOverview('<html><head><title>r</title></head><body class="x"><div id="app"></div></body></html>', parts),
  ).toBe(
    '<html><head><title>r</title><style>s</style>\n</head><body class="x">\n<main>o</main>\n<div id="app"></div></body></html>',
  );
  expect(() => withOverview("<html><div></div></html>", parts)).toThrow("The Allure report has no <head> and <body>");
});

test("the sources are summary.json, the history of findings and the pictures the Allure results attach; none without summary.json", () => {
  const out = scratchDir("overview");
  const results = join(out, "allure-results");
  mkdirSync(results);
  mkdirSync(join(out, "history"));
  expect(readOverviewSources(out, results)).toBeNull();
  // A summary.json written before runs compared themselves has no changes: nothing was compared.
  const { changes: _none, ...older } = summaryOf([found("pass")]);
  writeFileSync(join(out, "summary.json"), JSON.stringify(older));
  expect(readOverviewSources(out, results)!.summary.changes).toBeNull();
  const summary = summaryOf([found("pass")]);
  writeFileSync(join(out, "summary.json"), JSON.stringify(summary));
  writeFileSync(
    join(out, "history", "findings.jsonl"),
    `${JSON.stringify(recorded("2026-11-27T03:00:00.000Z", checklistOf("pass")))}\nnot json\n${JSON.stringify(recorded("2026-11-28T08:12:11.126Z", checklistOf("pass")))}\n`,
  );
  const picture = (name: string, source: string) => ({ name, attachments: [{ name, source, type: "image/png" }] });
  const result = (name: string, steps: object[]) => ({
    name,
    labels: [{ name: "feature", value: "Demo shop" }],
    parameters: [{ name: "environment", value: "staging" }],
    steps,
  });
  writeFileSync(
    join(results, "b-result.json"),
    JSON.stringify(
      result("CTA · variations · mobile", [
        picture("control and variations side by side", "p1.png"),
        picture('filmstrip of "Long"', "p2.png"),
      ]),
    ),
  );
  writeFileSync(
    join(results, "a-result.json"),
    JSON.stringify(result("CTA · variations · desktop", [picture("control and variations side by side", "gone.png")])),
  );
  writeFileSync(
    join(results, "c-result.json"),
    JSON.stringify(result("home · desktop", [picture("screenshot", "p3.png")])),
  );
  for (const name of ["p1.png", "p2.png", "p3.png"]) writeFileSync(join(results, name), name);
  const sources = readOverviewSources(out, results)!;
  expect(sources.summary).toEqual(summary);
  expect(sources.history.map((run) => run.startedAt)).toEqual(["2026-11-27T03:00:00.000Z", "2026-11-28T08:12:11.126Z"]);
  expect(
    sources.pictures.map(({ title, target, images }) => [
      title,
      target,
      images.map(({ caption, png }) => `${caption}: ${png.toString()}`),
    ]),
  ).toEqual([
    [
      "CTA · variations · mobile",
      "Demo shop (staging)",
      ["control and variations side by side: p1.png", 'filmstrip of "Long": p2.png'],
    ],
  ]);
});

test("an old summary renders as it was: a check since renamed keeps its id, title, severity and reason, and one written before findings carried them shows its id", () => {
  const retired = {
    ...found("fail", { page: "pricing", viewport: "mobile", message: "The banner covered the page." }),
    check: "layout.banner" as Finding["check"],
    title: "A banner covers the page",
    severity: "minor" as const,
    family: "Pages and viewports" as const,
  };
  const {
    title: _title,
    severity: _severity,
    family: _family,
    ...untitled
  } = found("warn", {
    check: "sdk.order",
    page: "home",
    viewport: "desktop",
    message: "A call came first.",
  });
  const text = textOf(
    overviewOf({
      ...summaryOf([retired, untitled as Finding]),
      checks: { "layout.banner": { why: "A visitor cannot see what the experiment changes." } },
    }),
  );
  expect(text).toContain("A banner covers the page layout.banner 1 finding(s)");
  expect(text).toContain("Why it matters: A visitor cannot see what the experiment changes.");
  expect(text).toContain("sdk.order sdk.order 1 finding(s)");
  expect(text).not.toContain("Calls run before the SDK has loaded");
});
