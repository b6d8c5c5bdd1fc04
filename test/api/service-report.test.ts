import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { parseReport, readReportFile } from "../../src/api/service-report.js";

/**
 * Report data, read leniently, as the API answers it or as an exported file next to the spec
 * holds it (the API exchange itself is tested with the other endpoints in faults.test.ts).
 */

/** The one experiment of a report, parsed and normalised. */
function onlyExperiment(experiment: Record<string, unknown>) {
  const parsed = parseReport(JSON.stringify({ data: [experiment] }));
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.data[0]!;
}

/** The one variation of a report's one experiment, parsed and normalised. */
const onlyVariation = (variation: Record<string, unknown>) => onlyExperiment({ variations: [variation] }).variations[0];

test.describe("report data", () => {
  test("allows unknown fields and reads counts and splits given as text", () => {
    const body = {
      data: [
        { name: "A", owner: "growth", variations: [{ name: "x", visitors: "5150", weight: "50%", colour: "red" }] },
      ],
      page: 1,
    };
    expect(parseReport(JSON.stringify(body))).toEqual({
      ok: true,
      data: [{ name: "A", warnings: [], variations: [{ name: "x", visitors: 5150, weight: 50 }] }],
    });
  });

  test("may stand under data, under experiments, or alone", () => {
    const experiments = [{ name: "A", warnings: ["Bot traffic", { type: "srm", severity: "high" }] }];
    const normalised = [
      {
        name: "A",
        warnings: [
          { text: "Bot traffic", words: "Bot traffic" },
          { text: "srm", words: "srm" },
        ],
        variations: [],
      },
    ];
    for (const body of [{ data: experiments }, { experiments }, experiments]) {
      expect(parseReport(JSON.stringify(body))).toEqual({ ok: true, data: normalised });
    }
  });

  test("an experiment or a variation is named by its name, key or id", () => {
    expect(onlyExperiment({ name: "A", key: "a", id: 1 }).name).toBe("A");
    expect(onlyExperiment({ key: "a", id: 1 }).name).toBe("a");
    expect(onlyExperiment({ id: 1 }).name).toBe("1");
    expect(onlyExperiment({}).name).toBeNull();
    expect(onlyVariation({ key: "b", id: 2 })?.name).toBe("b");
    expect(onlyVariation({ id: 2 })?.name).toBe("2");
  });

  test("variations may be listed as variants", () => {
    expect(onlyExperiment({ variants: [{ name: "x", users: 3 }] }).variations).toEqual([
      { name: "x", visitors: 3, weight: null },
    ]);
  });

  for (const field of ["visitors", "users", "participants"]) {
    test(`a variation's visitors may be given in ${field}`, () => {
      expect(onlyVariation({ [field]: 120 })?.visitors).toBe(120);
    });
  }

  for (const field of ["weight", "split", "traffic", "allocation", "percentage"]) {
    test(`a variation's planned share may be given in ${field}`, () => {
      expect(onlyVariation({ [field]: "25%" })?.weight).toBe(25);
    });
  }

  test("the first field given wins, and a variation without one says so", () => {
    expect(onlyVariation({ participants: 3, visitors: 1, users: 2, percentage: 4, split: 5 })).toEqual({
      name: null,
      visitors: 1,
      weight: 5,
    });
    expect(onlyVariation({ name: "x" })).toEqual({ name: "x", visitors: null, weight: null });
  });

  test("a warning keeps its wording, and every word that tells what it is about", () => {
    const warningsOf = (warnings: unknown[]) => onlyExperiment({ warnings }).warnings;
    expect(warningsOf(["Bot traffic"])).toEqual([{ text: "Bot traffic", words: "Bot traffic" }]);
    expect(warningsOf([{ code: "events_dropped", message: "Payload too large" }])).toEqual([
      { text: "Payload too large", words: "events_dropped Payload too large" },
    ]);
    expect(warningsOf([{ kind: "srm", title: "Split off", name: "n", type: "t" }])).toEqual([
      { text: "t", words: "t srm n Split off" },
    ]);
    expect(warningsOf([{ code: "c" }, { title: "Crawlers" }])).toEqual([
      { text: "c", words: "c" },
      { text: '{"title":"Crawlers"}', words: "Crawlers" },
    ]);
  });

  test("a body of another shape names every field that is wrong, in plain words", () => {
    const body = { data: [{ name: 3, warnings: [5], variations: [{ visitors: -3 }, { visitors: "many" }] }] };
    expect(parseReport(JSON.stringify(body))).toEqual({
      ok: false,
      problem:
        "data[0].name must be text, not a number (3); data[0].warnings[0] must be text, or a mapping with type, code or message; " +
        "data[0].variations[0].visitors must be at least 0 (and 1 more)",
    });
    const aliased = { data: [{ key: 5, variants: [{ users: "many" }, { participants: 1, allocation: -2 }] }] };
    expect(parseReport(JSON.stringify(aliased))).toEqual({
      ok: false,
      problem:
        'data[0].key must be text, not a number (5); data[0].variants[0].users must be a number of at least 0, like 5150 or "50%"; ' +
        "data[0].variants[1].allocation must be at least 0",
    });
    expect(parseReport('{"report": {}}')).toEqual({ ok: false, problem: "data must be a list, not missing" });
    expect(parseReport("<html>")).toEqual({
      ok: false,
      problem: expect.stringMatching(/^the body is not JSON \(.+\)$/),
    });
  });
});

test.describe("report.file", () => {
  let dir: string;
  let specFile: string;

  test.beforeEach(({}, testInfo) => {
    dir = testInfo.outputPath("audits");
    mkdirSync(dir, { recursive: true });
    specFile = join(dir, "shop.yaml");
  });

  test("is read relative to the spec file", () => {
    writeFileSync(join(dir, "export.json"), JSON.stringify({ experiments: [{ name: "A" }] }));
    expect(readReportFile("export.json", specFile)).toEqual({
      file: join(dir, "export.json"),
      experiments: [{ name: "A", warnings: [], variations: [] }],
      problem: null,
    });
  });

  test("a missing file or one that cannot be understood is a problem, quoting its start", () => {
    expect(readReportFile("nowhere.json", specFile)).toEqual({
      file: join(dir, "nowhere.json"),
      experiments: null,
      problem: expect.stringMatching(
        /^it could not be read \(ENOENT: no such file or directory, open '.*nowhere\.json'\)$/,
      ),
    });
    writeFileSync(join(dir, "wrong.json"), '{\n  "data": {"name": "A"}\n}');
    expect(readReportFile("wrong.json", specFile)?.problem).toBe(
      'data must be a list, not a mapping; it starts with { "data": {"name": "A"} }',
    );
  });

  test("is not read when the spec names none", () => {
    expect(readReportFile(undefined, specFile)).toBeNull();
  });
});
