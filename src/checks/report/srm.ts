/**
 * Sample-ratio mismatch (SRM): a chi-square goodness-of-fit test of the visitors each variation
 * got against the split the experiment planned. Pure maths, no I/O: report.warnings uses it on
 * the counts the service reports.
 *
 * The chi-square tail is computed here rather than taken from a statistics package: jstat gives
 * the CDF, whose complement loses the small p-values an SRM is about; simple-statistics judges
 * against a table of fixed levels, without 0.001 and without a p-value; @stdlib's gammainc has the
 * upper tail but brings some forty packages for one function. The tail below is checked
 * against scipy to six significant digits, down to p ≈ 1e-111 (test/checks/report/srm.test.ts).
 */

/** What the SRM test needs besides the counts (the spec's `report.srm`). */
export interface SrmOptions {
  /** Significance level: a p-value below it is a mismatch. */
  alpha: number;
  /** Expected visitors per variation (total × its planned share) before the test judges at all. */
  minimumVisitors: number;
}

/** The SRM test's outcome for one experiment. */
export interface SrmResult {
  /** `srm` when p < alpha, `ok` when not, `insufficient` when too few visitors to judge yet. */
  verdict: "srm" | "ok" | "insufficient";
  /** Visitors per variation, as observed. */
  observed: number[];
  /** Visitors per variation the planned split expects of the observed total. */
  expected: number[];
  /** Each variation's planned share of the traffic, summing to 1. */
  shares: number[];
  /** Every variation's visitors together. */
  total: number;
  /** The total the test needs before judging: the smallest share must expect `minimumVisitors`. */
  requiredTotal: number;
  /** Pearson's chi-square statistic; Infinity when a variation planned to get nobody got visitors. */
  chiSquare: number;
  /** Variations taking part, less one. */
  degreesOfFreedom: number;
  /** Probability of a split at least this uneven if the traffic really followed the plan. */
  pValue: number;
}

/**
 * Tests observed visitor counts against a planned split, given as weights in any unit (50/50,
 * 1/1 and 0.5/0.5 are the same split). A variation planned to get no traffic takes no part in
 * the test, unless it got visitors: then the split is broken beyond doubt (χ² = ∞, p = 0).
 * "Enough visitors" is judged on the expected counts, not the observed ones, so that a variation
 * that gets no visitors at all — the starkest mismatch — is judged, not waved through as "too early".
 */
export function sampleRatioMismatch(
  observed: readonly number[],
  planned: readonly number[],
  options: SrmOptions,
): SrmResult {
  if (observed.length !== planned.length)
    throw new RangeError(`${observed.length} visitor count(s) but ${planned.length} planned weight(s)`);
  if ([...observed, ...planned].some((value) => !Number.isFinite(value) || value < 0))
    throw new RangeError("counts and weights must be finite and not negative");
  const weightSum = planned.reduce((sum, weight) => sum + weight, 0);
  if (weightSum <= 0) throw new RangeError("the planned weights add up to 0");
  const shares = planned.map((weight) => weight / weightSum);
  const total = observed.reduce((sum, count) => sum + count, 0);
  const expected = shares.map((share) => share * total);
  const taking = shares.flatMap((share, index) => (share > 0 ? [index] : []));
  const smallestShare = Math.min(...taking.map((index) => shares[index]!));
  const requiredTotal = Math.ceil(options.minimumVisitors / smallestShare - 1e-9);
  const base = {
    observed: [...observed],
    expected,
    shares,
    total,
    requiredTotal,
    degreesOfFreedom: Math.max(taking.length - 1, 0),
  };
  const unplanned = observed.some((count, index) => shares[index] === 0 && count > 0);
  if (unplanned) return { ...base, verdict: "srm", chiSquare: Infinity, pValue: 0 };
  const chiSquare = chiSquareStatistic(
    taking.map((index) => observed[index]!),
    taking.map((index) => expected[index]!),
  );
  const pValue = base.degreesOfFreedom === 0 ? 1 : chiSquareSurvival(chiSquare, base.degreesOfFreedom);
  if (total < requiredTotal) return { ...base, verdict: "insufficient", chiSquare, pValue };
  return { ...base, verdict: pValue < options.alpha ? "srm" : "ok", chiSquare, pValue };
}

/** Pearson's statistic Σ (observed − expected)² / expected, over cells whose expected count is positive. */
export function chiSquareStatistic(observed: readonly number[], expected: readonly number[]): number {
  return observed.reduce((sum, count, index) => {
    const wanted = expected[index]!;
    return wanted > 0 ? sum + (count - wanted) ** 2 / wanted : sum;
  }, 0);
}

/** P(X ≥ x) for X chi-square distributed with `degreesOfFreedom`: the test's p-value. */
export function chiSquareSurvival(x: number, degreesOfFreedom: number): number {
  if (!(degreesOfFreedom > 0)) throw new RangeError("degrees of freedom must be positive");
  if (x <= 0) return 1;
  if (x === Infinity) return 0;
  return regularizedUpperGamma(degreesOfFreedom / 2, x / 2);
}

const EPSILON = 1e-15;
const TINY = 1e-300;
const MAX_ITERATIONS = 10_000;

/**
 * Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function (Numerical Recipes
 * §6.2): below x = a + 1 the series of P converges fast and Q = 1 − P; above it, Q's continued
 * fraction does, and computing Q directly keeps tiny p-values accurate instead of 1 − 0.99999….
 */
export function regularizedUpperGamma(a: number, x: number): number {
  if (!(a > 0) || x < 0) throw new RangeError("needs a > 0 and x ≥ 0");
  if (x === 0) return 1;
  return x < a + 1 ? 1 - lowerGammaSeries(a, x) : upperGammaContinuedFraction(a, x);
}

/** e^(−x) x^a / Γ(a), the factor both expansions share, computed in logs to avoid overflow. */
function gammaPrefactor(a: number, x: number): number {
  return Math.exp(-x + a * Math.log(x) - logGamma(a));
}

/** P(a, x) by its series Σ xⁿ / (a (a+1) … (a+n)). */
function lowerGammaSeries(a: number, x: number): number {
  let term = 1 / a;
  let sum = term;
  for (let n = 1; n <= MAX_ITERATIONS; n++) {
    term *= x / (a + n);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPSILON) break;
  }
  return sum * gammaPrefactor(a, x);
}

/** Q(a, x) by its continued fraction, evaluated with the modified Lentz method. */
function upperGammaContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let fraction = d;
  for (let i = 1; i <= MAX_ITERATIONS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    fraction *= step;
    if (Math.abs(step - 1) < EPSILON) break;
  }
  return fraction * gammaPrefactor(a, x);
}

/** Lanczos coefficients for g = 7, n = 9: about 15 correct digits for positive arguments. */
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(z) for z > 0, by the Lanczos approximation. */
export function logGamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const shifted = z - 1;
  let series = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) series += LANCZOS[i]! / (shifted + i);
  const t = shifted + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(series);
}
