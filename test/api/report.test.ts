import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { parseReport, readReportFile } from "../../src/api/report.js";

/**
 * Report data, read leniently, as the API answers it or as an exported file next to the spec
 * holds it (the API exchange itself is tested with the other endpoints in faults.test.ts).
 */

test.describe("report data", () => {
  test("keeps unknown fields and reads counts and splits given as text", () => {
    const body = { data: [{ name: "A", owner: "growth", variations: [{ name: "x", visitors: "5150", weight: "50%", colour: "red" }] }], page: 1 };
    expect(parseReport(JSON.stringify(body))).toEqual({
      ok: true,
      data: [{ name: "A", owner: "growth", variations: [{ name: "x", visitors: 5150, weight: 50, colour: "red" }] }],
    });
  });

  test("may stand under data, under experiments, or alone", () => {
    const experiments = [{ name: "A", warnings: ["Bot traffic", { type: "srm", severity: "high" }] }];
    for (const body of [{ data: experiments }, { experiments }, experiments]) {
      expect(parseReport(JSON.stringify(body))).toEqual({ ok: true, data: experiments });
    }
  });

  test("a body of another shape names every field that is wrong, in plain words", () => {
    const body = { data: [{ name: 3, warnings: [5], variations: [{ visitors: -3 }, { visitors: "many" }] }] };
    expect(parseReport(JSON.stringify(body))).toEqual({
      ok: false,
      problem:
        "data[0].name must be text, not a number (3); data[0].warnings[0] must be text, or a mapping with type, code or message; " +
        "data[0].variations[0].visitors must be at least 0 (and 1 more)",
    });
    expect(parseReport('{"report": {}}')).toEqual({ ok: false, problem: "data must be a list, not missing" });
    expect(parseReport("<html>")).toEqual({ ok: false, problem: expect.stringMatching(/^the body is not JSON \(.+\)$/) });
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
    expect(readReportFile("export.json", specFile)).toEqual({ file: join(dir, "export.json"), experiments: [{ name: "A" }], problem: null });
  });

  test("a missing file or one that cannot be understood is a problem, quoting its start", () => {
    expect(readReportFile("nowhere.json", specFile)).toEqual({
      file: join(dir, "nowhere.json"),
      experiments: null,
      problem: expect.stringMatching(/^it could not be read \(ENOENT: no such file or directory, open '.*nowhere\.json'\)$/),
    });
    writeFileSync(join(dir, "wrong.json"), '{\n  "data": {"name": "A"}\n}');
    expect(readReportFile("wrong.json", specFile)?.problem).toBe('data must be a list, not a mapping; it starts with { "data": {"name": "A"} }');
  });

  test("is not read when the spec names none", () => {
    expect(readReportFile(undefined, specFile)).toBeNull();
  });
});
