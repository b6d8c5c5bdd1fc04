import { expect, test } from "@playwright/test";
import type { ApiExchange, ReportExperiment } from "../../../src/artifacts/types.js";
import type { AuditContext } from "../../../src/checks/check.js";
import { runChecks } from "../../../src/checks/index.js";
import { reportWarnings } from "../../../src/checks/report/warnings.js";
import { reportListSchema } from "../../../src/api/service-report.js";
import { apiWith, contextOf, exchangeOf, failedExchange, normalised, specWith } from "../../support/artifacts.js";

/** report.warnings on report data: each reported warning named as what it is, the SRM test's figures, and every reason to skip. */

const REPORT_URL = "http://127.0.0.1:47411/v1/projects/prj_demo_staging/report";

/** A context whose spec reads `experiments` (as the report gives them) from an exported file. */
function fileContext(experiments: unknown[], srm: Record<string, number> = {}): AuditContext {
  const spec = specWith({ report: { file: "exports/report.json", srm } });
  return {
    ...contextOf([], spec),
    reportFile: {
      file: "audits/exports/report.json",
      experiments: normalised(reportListSchema, experiments),
      problem: null,
    },
  };
}

/** A context whose spec reads the report from the API, with this report exchange. */
function apiContext(report: ApiExchange<ReportExperiment> | null): AuditContext {
  const spec = specWith({
    api: { baseUrl: "http://127.0.0.1:47411", keyEnv: "SERVICE_API_KEY" },
    report: { path: "/v1/projects/{project}/report" },
  });
  return contextOf([], spec, apiWith({ report }));
}

function judged(context: AuditContext) {
  return runChecks(context, [reportWarnings]).map(({ status, experiment, message, page, viewport }) => ({
    status,
    experiment,
    message,
    page,
    viewport,
  }));
}

/** The one finding of a one-experiment report. */
function only(context: AuditContext) {
  const findings = judged(context);
  expect(findings).toHaveLength(1);
  return findings[0]!;
}

const balanced = [
  { name: "Short copy", visitors: 5012, weight: 50 },
  { name: "Long copy", visitors: 4988, weight: 50 },
];

test.describe("a report with experiments", () => {
  test("passes an experiment without warnings whose visitors match the plan, with the figures", () => {
    expect(only(fileContext([{ name: "Pricing CTA", warnings: [], variations: balanced }]))).toEqual({
      status: "pass",
      experiment: "Pricing CTA",
      page: null,
      viewport: null,
      message:
        'Experiment "Pricing CTA": the service reports no warning, and the visitors match the planned split ' +
        "(observed Short copy 5012, Long copy 4988; expected 5000, 5000 for the planned 50% / 50%; χ² = 0.06, df = 1, p = 0.81).",
    });
  });

  test("fails a computed sample-ratio mismatch, naming the counts, the split, χ² and p", () => {
    const skewed = [
      { name: "Green", visitors: 5300, weight: 50 },
      { name: "Orange", visitors: 4700, weight: 50 },
    ];
    expect(only(fileContext([{ name: "Checkout colour", variations: skewed }]))).toMatchObject({
      status: "fail",
      experiment: "Checkout colour",
      message:
        'Experiment "Checkout colour": a sample-ratio mismatch — its visitors do not match the planned split ' +
        "(observed Green 5300, Orange 4700; expected 5000, 5000 for the planned 50% / 50%; χ² = 36.00, df = 1, p = 2.0e-9, below alpha 0.001): " +
        "some visitors are lost or miscounted in one variation, so its results cannot be trusted — look for a variation that redirects, loads slower or breaks on one viewport.",
    });
  });

  test("judges against the spec's alpha: p = 0.0027 passes at 0.001 and fails at 0.01", () => {
    const variations = [
      { name: "A", visitors: 5150, weight: 1 },
      { name: "B", visitors: 4850, weight: 1 },
    ];
    expect(only(fileContext([{ name: "Hero", variations }])).status).toBe("pass");
    expect(only(fileContext([{ name: "Hero", variations }], { alpha: 0.01 })).message).toContain(
      "χ² = 9.00, df = 1, p = 0.0027, below alpha 0.01)",
    );
  });

  test("fails on a bot-traffic warning, saying the visitors were filtered, not dropped", () => {
    const bots = {
      name: "Signup headline",
      warnings: [{ type: "bot_traffic", message: "Bot traffic detected: 18% of visitors were filtered out as bots" }],
      variations: balanced,
    };
    expect(only(fileContext([bots]))).toMatchObject({
      status: "fail",
      experiment: "Signup headline",
      message:
        'Experiment "Signup headline": the service flags bot traffic ("Bot traffic detected: 18% of visitors were filtered out as bots"): ' +
        "visitors it took for bots are filtered out of the results, not dropped — make sure audit and QA traffic is tagged so the service excludes it, " +
        "and look for crawlers on the experiment's pages.",
    });
  });

  test("fails on a dropped-events warning, saying it is not bot filtering", () => {
    expect(
      only(fileContext([{ name: "Coupon field", warnings: ["Dropped events: 312 events were over the size limit"] }])),
    ).toMatchObject({
      status: "fail",
      message:
        'Experiment "Coupon field": the service reports dropped events ("Dropped events: 312 events were over the size limit"): ' +
        "events were lost and never counted, so conversions are missing — this is not bot filtering; check events.delivered on the audited pages and the events' payloads.",
    });
  });

  test("fails on a reported sample-ratio mismatch, by code or in words", () => {
    for (const warning of [
      { code: "SRM" },
      "Sample ratio mismatch detected",
      { type: "sample_ratio_mismatch", message: "Traffic split is off" },
    ]) {
      const found = only(fileContext([{ name: "Hero", warnings: [warning] }]));
      expect(found.status).toBe("fail");
      expect(found.message).toMatch(
        /^Experiment "Hero": the service reports a sample-ratio mismatch \(".+"\): visitors do not reach the variations in the planned split/,
      );
    }
  });

  test("tells bot filtering and drops apart when a warning mentions both, and names each warning of an experiment", () => {
    const found = only(
      fileContext([
        {
          name: "Hero",
          warnings: ["Events from bots were dropped", { code: "events_dropped", message: "Payload too large" }],
        },
      ]),
    );
    expect(found.status).toBe("fail");
    expect(found.message).toMatch(
      /^Experiment "Hero": the service flags bot traffic \("Events from bots were dropped"\): .*; the service reports dropped events \("Payload too large"\): /,
    );
  });

  test("warns on a warning it does not know, quoting it", () => {
    expect(
      only(fileContext([{ name: "Hero", warnings: [{ type: "low_power" }], variations: balanced }])),
    ).toMatchObject({
      status: "warn",
      message:
        'Experiment "Hero": the service shows a warning setup-audit does not know ("low_power") — read it in the service\'s report.',
    });
  });

  test("skips an experiment with too few visitors to judge yet", () => {
    const young = [
      { name: "A", visitors: 60, weight: 1 },
      { name: "B", visitors: 45, weight: 1 },
    ];
    expect(only(fileContext([{ name: "Hero", variations: young }]))).toMatchObject({
      status: "skip",
      message:
        'Experiment "Hero": not judged yet: 105 visitors, needs 200 (100 per variation at the planned split) before a sample-ratio mismatch can be told from chance; the service reports no warning.',
    });
    expect(only(fileContext([{ name: "Hero", variations: young }], { minimumVisitors: 40 })).status).toBe("pass");
  });

  test("still fails a reported warning when there are too few visitors to compute SRM", () => {
    const young = [
      { name: "A", visitors: 6, weight: 1 },
      { name: "B", visitors: 4, weight: 1 },
    ];
    expect(only(fileContext([{ name: "Hero", warnings: ["bot traffic"], variations: young }])).status).toBe("fail");
  });

  test("passes on the service's word when the report gives no planned split, saying SRM was not computed", () => {
    const unplanned = [
      { name: "A", users: 600 },
      { name: "B", users: 450 },
    ];
    expect(only(fileContext([{ name: "Hero", variations: unplanned }])).message).toBe(
      'Experiment "Hero": the service reports no warning; SRM not computed: variations "A", "B" have no planned split (weight, split, traffic, allocation, percentage).',
    );
    expect(only(fileContext([{ name: "Hero", variants: [{ key: "a", traffic: 50 }] }])).message).toBe(
      'Experiment "Hero": the service reports no warning; SRM not computed: the report lists only one variation.',
    );
  });

  test("reads other field names, three variations, and visitors in a variation planned to get none", () => {
    const thirds = [
      { participants: 3000, allocation: 1 },
      { participants: 3100, allocation: 1 },
      { participants: 2900, allocation: 1 },
    ];
    expect(only(fileContext([{ key: "exp-thirds", variations: thirds }]))).toMatchObject({
      status: "pass",
      experiment: "exp-thirds",
      message: expect.stringContaining(
        "(observed #1 3000, #2 3100, #3 2900; expected 3000, 3000, 3000 for the planned 33.3% / 33.3% / 33.3%; χ² = 6.67, df = 2, p = 0.036)",
      ),
    });
    const leaking = [
      { name: "A", visitors: 3000, weight: 50 },
      { name: "B", visitors: 3000, weight: 50 },
      { name: "Off", visitors: 12, weight: 0 },
    ];
    expect(only(fileContext([{ id: 42, variations: leaking }]))).toMatchObject({
      status: "fail",
      experiment: "42",
      message: expect.stringContaining(
        'for the planned 50% / 50% / 0%; variation "Off" was planned to get no traffic but got visitors)',
      ),
    });
  });

  test("gives one finding per experiment, an unnamed one without an experiment", () => {
    const findings = judged(fileContext([{ name: "Hero", variations: balanced }, { warnings: ["bot traffic"] }]));
    expect(findings.map(({ status, experiment }) => [status, experiment])).toEqual([
      ["pass", "Hero"],
      ["fail", null],
    ]);
    expect(findings[1]!.message).toMatch(/^Experiment #2 of the report: the service flags bot traffic/);
  });
});

test.describe("no report to judge", () => {
  test("skips when the spec has no report section", () => {
    expect(only(contextOf([], specWith()))).toMatchObject({
      status: "skip",
      experiment: null,
      message:
        "The spec has no report section, so the service's report warnings are not checked. Add report.path (an API path, like /v1/projects/{project}/report) " +
        "or report.file (an exported JSON file) to check for bot, SRM and dropped-event warnings.",
    });
  });

  test("skips a report that lists no experiments", () => {
    expect(only(fileContext([]))).toMatchObject({
      status: "skip",
      message: "Not judged: the report (audits/exports/report.json) lists no experiments.",
    });
  });

  test("fails a report file that could not be used, quoting the problem", () => {
    const context = {
      ...fileContext([]),
      reportFile: {
        file: "audits/exports/report.json",
        experiments: null,
        problem: "data must be a list, not a mapping; it starts with {}",
      },
    };
    expect(only(context)).toMatchObject({
      status: "fail",
      message:
        "Could not use the report file audits/exports/report.json: data must be a list, not a mapping; it starts with {}. Fix report.file (relative to the spec file), " +
        "or export the report again as JSON: a list of experiments with their name, warnings and variations.",
    });
  });

  test("reads the API's report, and names its URL when it lists nothing", () => {
    expect(
      only(apiContext(exchangeOf(normalised(reportListSchema, [{ name: "Hero", variations: balanced }]), REPORT_URL))),
    ).toMatchObject({ status: "pass", experiment: "Hero" });
    expect(only(apiContext(exchangeOf([], REPORT_URL))).message).toBe(
      `Not judged: the report (GET ${REPORT_URL}) lists no experiments.`,
    );
  });

  test("fails when the API's report could not be read, saying which setting to fix", () => {
    const missing = failedExchange(
      { kind: "http", status: 404, detail: 'HTTP 404 with body {"error":"not found"}' },
      1,
      REPORT_URL,
    );
    expect(only(apiContext(missing))).toMatchObject({
      status: "fail",
      message: `Could not read the report data (GET ${REPORT_URL}): HTTP 404 with body {"error":"not found"} — the service has no such endpoint. Fix report.path.`,
    });
    const garbled = failedExchange(
      {
        kind: "malformed",
        status: 200,
        detail: 'data[0].name must be text, not a number (3); the body was {"data":[{"name":3}]}',
      },
      1,
      REPORT_URL,
    );
    expect(only(apiContext(garbled)).message).toBe(
      `Could not read the report data (GET ${REPORT_URL}): it answered HTTP 200, but the body could not be understood: data[0].name must be text, not a number (3); ` +
        'the body was {"data":[{"name":3}]}. Check that report.path points at the service\'s API; if it does, its answer changed shape — report it.',
    );
  });

  test("skips, pointing at the API check that says why, when the report was not asked for", () => {
    expect(only(apiContext(null)).message).toBe(
      "Not judged: the report was not asked for, because the service's project list could not be read or does not list the project (see api.project).",
    );
    const noKey = { ...apiContext(null), api: apiWith({ keySet: false, projects: null, goals: null }) };
    expect(only(noKey)).toMatchObject({
      status: "skip",
      message: "Not judged: no API key in SERVICE_API_KEY (see api.auth).",
    });
  });
});
