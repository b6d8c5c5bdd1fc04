import { CONDITION_FIELDS } from "../../api/match.js";
import type { ApiGoal } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import { nearMisses, orJoined, orList } from "../../text/wording.js";
import { defineCheck, specWideFinding, type AuditContext, type Verdict } from "../check.js";
import { failedExchange, judgeableApi, matchedProject } from "./answers.js";

/** api.goals: each spec goal exists in the service by name, and its condition equals the spec's event exactly. */
export const apiGoals = defineCheck({
  id: "api.goals",
  scope: "run",
  title: "The service's goals match the spec's",
  failureTitle: "A goal is missing in the service or its condition differs",
  family: "API",
  severity: "critical",
  failsWhen:
    'a spec goal is not in the service ("did you mean …"), its condition differs from the spec\'s event ' +
    "(near misses named), or the goals could not be read; **skip** without `api.goalsPath`",
  why:
    "A goal counts only events whose name equals its condition exactly: a goal missing in the " +
    "service, or a condition of `Signup Success` for an event `signup_success`, shows zero conversions without any error.",
  requires: ["api"],
  evaluate(context): Judgement[] {
    const skip = (message: string) => specWideFinding(context, { status: "skip", message });
    const goalsPath = context.spec.api?.goalsPath;
    const judgeable = judgeableApi(context);
    if ("blocked" in judgeable) return skip(judgeable.blocked);
    if (!goalsPath)
      return skip(
        "The spec's api section has no goalsPath, so goal conditions are not cross-checked with the service. Add one, like /v1/projects/{project}/goals.",
      );
    if (context.spec.goals.length === 0) return skip("The spec defines no goals.");
    const found = matchedProject(context);
    if ("skip" in found) return skip(found.skip);
    const exchange = found.api.goals;
    if (exchange === null) return skip("Not judged: the goals were not read.");
    if (exchange.data === null) {
      return specWideFinding(context, failedExchange(exchange, "the service's goals", "api.goalsPath"));
    }
    return specWideFinding(context, judgeGoals(context, exchange.data));
  },
});

function judgeGoals(context: AuditContext, listed: readonly ApiGoal[]): Verdict {
  const names = listed.flatMap((goal) => (goal.name === null ? [] : [goal.name]));
  const judged = context.spec.goals.map((goal) => {
    const conditions = listed
      .filter((candidate) => candidate.name === goal.name)
      .map((candidate) => candidate.condition);
    const problem = goalProblem(goal, conditions, names);
    return { name: goal.name, event: goal.event, found: conditions.length > 0, conditions, problem };
  });
  const evidence = { goals: judged.map(({ problem: _problem, ...rest }) => rest), listed: names };
  const problems = judged.flatMap((goal) => (goal.problem === null ? [] : [goal.problem]));
  if (problems.length > 0) {
    return {
      status: "fail",
      message: `${problems.join("; ")}. Make each goal's condition in the service equal the event the page sends, exactly, or fix the spec's goals.`,
      evidence,
    };
  }
  const pairs = judged.map((goal) => `"${goal.name}" = \`${goal.event}\``).join(", ");
  return {
    status: "pass",
    message: `Every goal exists in the service with the spec's event as its condition (${pairs}).`,
    evidence,
  };
}

function goalProblem(
  goal: { name: string; event: string },
  conditions: readonly (string | null)[],
  names: readonly string[],
): string | null {
  if (conditions.length === 0) {
    const close = nearMisses(goal.name, names);
    return `goal "${goal.name}" is not in the service${close.length > 0 ? ` (did you mean ${orList(close)}?)` : ""}`;
  }
  if (conditions.includes(goal.event)) return null;
  const readable = conditions.filter((condition): condition is string => condition !== null);
  if (readable.length === 0)
    return `goal "${goal.name}" has no condition setup-audit can read (a string, or an object with ${orJoined(CONDITION_FIELDS)})`;
  const near = readable.some((condition) => nearMisses(goal.event, [condition]).length > 0);
  const nearHint = near ? ` (a near miss: did you mean \`${goal.event}\`?)` : "";
  return `goal "${goal.name}" has the condition ${orList(readable)} in the service, but the spec's event is \`${goal.event}\`${nearHint}`;
}
