/**
 * `bench-plan:` what a tracking plan costs. In this process: the shop's plan read and compiled,
 * then 10,000 captured calls validated against it (a third of them faulty), in milliseconds of
 * wall and CPU time (target: under 1,000). Then the bench's synthetic pages audited without and
 * with a `trackingPlan` that plans their event, each round one after the other, compared on wall
 * time (target: a ratio within 1.05).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadTrackingPlan } from "../../src/tracking-plan/load.js";
import { measure, median, type Measure } from "./measure.js";

/** The plan the validation is timed with: the tracking-plan shop's, in setup-audit's format. */
const SHOP_PLAN = "test/e2e/specs/plans/plan-shop.yaml";
const CALLS = 10_000;

/** The time to read and compile the shop's plan and validate `CALLS` calls against it: wall and this process's CPU, in milliseconds (CPU tells a loaded machine's wait apart). */
export function timePlanValidation(): { wallMs: number; cpuMs: number } {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const load = loadTrackingPlan(SHOP_PLAN, "auto");
  if (!load.ok) throw new Error(`${SHOP_PLAN} is not a valid plan`);
  let violations = 0;
  for (let index = 0; index < CALLS; index += 1) {
    // Every third call sends its revenue as text: building the violations is part of the cost.
    const revenue = index % 3 === 0 ? String(index) : index;
    violations += load.plan.validateTrack("Order Completed", {
      order_id: `ord_${index}`,
      revenue,
      currency: "EUR",
    })!.length;
  }
  const wallMs = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  if (violations !== Math.ceil(CALLS / 3))
    throw new Error(`expected ${Math.ceil(CALLS / 3)} violations, got ${violations}`);
  return { wallMs, cpuMs: (user + system) / 1000 };
}

/** One round: the audit without a plan, then with one. */
export interface PlanRound {
  without: Measure;
  with: Measure;
}

/** `rounds` rounds of the audit of `specText` without and with a plan of its `event`, with `workers` parallel browsers. */
export async function measurePlanAudit(options: {
  work: string;
  workers: number;
  rounds: number;
  event: string;
  specText: () => string;
}): Promise<PlanRound[]> {
  const { work, workers, rounds, event, specText } = options;
  const plan = join(work, "tracking-plan.yaml");
  writeFileSync(plan, `events:\n  ${JSON.stringify(event)}:\n    properties: { type: object }\n`);
  const runAudit = async (withPlan: boolean, label: string) => {
    const name = withPlan ? "plan" : "no-plan";
    const spec = join(work, `bench-${name}.yaml`);
    writeFileSync(spec, `${specText()}${withPlan ? `trackingPlan: { file: ${JSON.stringify(plan)} }\n` : ""}`);
    process.stderr.write(`tracking plan${label}: audit ${withPlan ? "with" : "without"} a plan…\n`);
    return measure([
      "bin/setup-audit.js",
      "run",
      spec,
      "--out",
      join(work, `out-${name}`),
      "--workers",
      String(workers),
    ]);
  };
  const measured: PlanRound[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const label = rounds > 1 ? ` (round ${round}/${rounds})` : "";
    const without = await runAudit(false, label);
    measured.push({ without, with: await runAudit(true, label) });
  }
  return measured;
}

/** The `bench-plan:` line: the validation's time, and the median ratio of the audits' wall times (with / without). */
export function planLine(validation: { wallMs: number; cpuMs: number }, measured: readonly PlanRound[]): string {
  const ratios = measured.map((round) => round.with.wallMs / round.without.wallMs);
  const seconds = (run: "with" | "without") => (median(measured.map((round) => round[run].wallMs)) / 1000).toFixed(1);
  return (
    [
      `bench-plan: validate_${CALLS}=${Math.round(validation.wallMs)}ms cpu=${Math.round(validation.cpuMs)}ms`,
      `ratio=${median(ratios).toFixed(3)}`,
      `wall=${seconds("with")}s/${seconds("without")}s`,
      ...(measured.length > 1 ? [`rounds=${ratios.map((value) => value.toFixed(3)).join(",")}`] : []),
    ].join(" ") + "\n"
  );
}
