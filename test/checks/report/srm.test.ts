import { expect, test } from "@playwright/test";
import {
  chiSquareStatistic,
  chiSquareSurvival,
  logGamma,
  regularizedUpperGamma,
  sampleRatioMismatch,
} from "../../../src/checks/report/srm.js";

/**
 * The SRM maths against known values: the chi-square critical values every table prints, the
 * df = 1 tail as erfc(√(x/2)), the df = 2 tail as exp(−x/2) exactly, and values computed with
 * scipy.stats.chi2.sf. Each is asserted to at least 6 significant digits.
 */

const DEFAULTS = { alpha: 0.001, minimumVisitors: 100 };

/** Asserts `actual` equals `expected` to `digits` significant digits. */
function expectSignificant(actual: number, expected: number, digits = 6) {
  expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(
    Math.abs(expected) * 10 ** -digits,
  );
}

test.describe("the chi-square survival function", () => {
  test("gives the table's critical values: 3.841 and 10.828 at df 1, 5.991 at df 2, 18.307 at df 10", () => {
    expectSignificant(chiSquareSurvival(3.841458820694124, 1), 0.05);
    expectSignificant(chiSquareSurvival(10.827566170662733, 1), 0.001);
    expectSignificant(chiSquareSurvival(5.991464547107979, 2), 0.05);
    expectSignificant(chiSquareSurvival(18.307038053275146, 10), 0.05);
  });

  test("equals exp(−x/2) at df 2, for small and large x", () => {
    for (const x of [0.01, 1, 6.666666666666667, 40, 300])
      expectSignificant(chiSquareSurvival(x, 2), Math.exp(-x / 2), 10);
  });

  test("matches scipy on both sides of x = a + 1, where it switches from the series to the continued fraction", () => {
    expectSignificant(chiSquareSurvival(0.001, 1), 0.9747728793699604);
    expectSignificant(chiSquareSurvival(0.5, 7), 0.9994464813904249);
    expectSignificant(chiSquareSurvival(30, 4), 4.894437128029217e-6);
    expectSignificant(chiSquareSurvival(100, 3), 1.5541594313896026e-21);
    expectSignificant(chiSquareSurvival(500, 1), 9.505397766554137e-111);
  });

  test("is 1 at x = 0 and 0 at infinity, and refuses df ≤ 0", () => {
    expect(chiSquareSurvival(0, 1)).toBe(1);
    expect(chiSquareSurvival(Infinity, 3)).toBe(0);
    expect(() => chiSquareSurvival(1, 0)).toThrow("degrees of freedom must be positive");
  });

  test("rests on Q(a, x) and ln Γ: Q(1, x) = e^−x, ln Γ(1/2) = ln √π, ln Γ(10) = ln 9!", () => {
    expectSignificant(regularizedUpperGamma(1, 2.5), Math.exp(-2.5), 12);
    expectSignificant(logGamma(0.5), Math.log(Math.sqrt(Math.PI)), 12);
    expectSignificant(logGamma(10), Math.log(362880), 12);
  });
});

test.describe("the SRM test", () => {
  test("[1000, 1000] at 50/50: χ² = 0, p = 1, no mismatch", () => {
    const result = sampleRatioMismatch([1000, 1000], [50, 50], DEFAULTS);
    expect(result).toEqual({
      verdict: "ok",
      observed: [1000, 1000],
      expected: [1000, 1000],
      shares: [0.5, 0.5],
      total: 2000,
      requiredTotal: 200,
      chiSquare: 0,
      degreesOfFreedom: 1,
      pValue: 1,
    });
  });

  test("[5150, 4850] at 50/50: χ² = 9.0, p ≈ 0.0027 — not below the default alpha 0.001, below 0.01", () => {
    const result = sampleRatioMismatch([5150, 4850], [50, 50], DEFAULTS);
    expectSignificant(result.chiSquare, 9);
    expectSignificant(result.pValue, 0.0026997960632601913);
    expect(result.verdict).toBe("ok");
    expect(sampleRatioMismatch([5150, 4850], [50, 50], { ...DEFAULTS, alpha: 0.01 }).verdict).toBe("srm");
  });

  test("[500, 560] at 1:1 weights: χ² ≈ 3.396, p ≈ 0.0654", () => {
    const result = sampleRatioMismatch([500, 560], [1, 1], DEFAULTS);
    expectSignificant(result.chiSquare, 1800 / 530);
    expectSignificant(result.pValue, 0.06534575162837801);
    expect(result.verdict).toBe("ok");
  });

  test("three variations: df = 2 and p = exp(−χ²/2)", () => {
    const result = sampleRatioMismatch([3000, 3100, 2900], [1, 1, 1], DEFAULTS);
    expect(result.degreesOfFreedom).toBe(2);
    expectSignificant(result.chiSquare, 20 / 3);
    expectSignificant(result.pValue, Math.exp(-10 / 3));
    expectSignificant(result.pValue, 0.035673993347252395);
  });

  test("an uneven plan in percentages: [9180, 820] at 90/10 is a mismatch, χ² = 36, p ≈ 1.97e-9", () => {
    const result = sampleRatioMismatch([9180, 820], [90, 10], DEFAULTS);
    expect(result.expected.map(Math.round)).toEqual([9000, 1000]);
    expectSignificant(result.chiSquare, 36);
    expectSignificant(result.pValue, 1.9731752900753933e-9);
    expect(result.verdict).toBe("srm");
    expect(result.requiredTotal).toBe(1000);
  });

  test("weights, percentages and fractions describe the same split", () => {
    const p = (planned: number[]) => sampleRatioMismatch([530, 470], planned, DEFAULTS).pValue;
    expect(p([1, 1])).toBe(p([50, 50]));
    expect(p([0.5, 0.5])).toBe(p([50, 50]));
  });

  test("too few visitors expected in a variation is insufficient, judged on the expected counts", () => {
    expect(sampleRatioMismatch([60, 45], [50, 50], DEFAULTS)).toMatchObject({
      verdict: "insufficient",
      total: 105,
      requiredTotal: 200,
    });
    expect(sampleRatioMismatch([100, 100], [50, 50], DEFAULTS).verdict).toBe("ok");
    // A variation nobody reached is the starkest mismatch, not "too early".
    expect(sampleRatioMismatch([400, 0], [50, 50], DEFAULTS).verdict).toBe("srm");
    expect(sampleRatioMismatch([950, 40], [90, 10], DEFAULTS)).toMatchObject({
      verdict: "insufficient",
      requiredTotal: 1000,
    });
  });

  test("a variation planned to get nothing takes no part, unless it got visitors", () => {
    const idle = sampleRatioMismatch([1000, 1000, 0], [50, 50, 0], DEFAULTS);
    expect(idle).toMatchObject({ verdict: "ok", degreesOfFreedom: 1, chiSquare: 0, pValue: 1 });
    const leaking = sampleRatioMismatch([1000, 1000, 5], [50, 50, 0], DEFAULTS);
    expect(leaking).toMatchObject({ verdict: "srm", chiSquare: Infinity, pValue: 0 });
  });

  test("refuses inputs that are not a split", () => {
    expect(() => sampleRatioMismatch([1, 2], [1], DEFAULTS)).toThrow("2 visitor count(s) but 1 planned weight(s)");
    expect(() => sampleRatioMismatch([1, -2], [1, 1], DEFAULTS)).toThrow(
      "counts and weights must be finite and not negative",
    );
    expect(() => sampleRatioMismatch([1, 2], [0, 0], DEFAULTS)).toThrow("the planned weights add up to 0");
  });

  test("the statistic skips cells expected to be empty", () => {
    expect(chiSquareStatistic([10, 20, 0], [15, 15, 0])).toBeCloseTo(50 / 15, 12);
  });
});
