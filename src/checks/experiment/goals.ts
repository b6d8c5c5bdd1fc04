import type { Judgement } from "../../findings/finding.js";
import { closestMatch, quoteList } from "../../text/wording.js";
import { defineCheck, specWideFinding } from "../check.js";

/** experiment.goals: every experiment has at least one goal, and only goals the spec defines. */
export const experimentGoals = defineCheck({
  id: "experiment.goals",
  scope: "run",
  title: "Every experiment has goals the spec defines",
  failureTitle: "An experiment has no goal or an unknown one",
  family: "Experiments",
  severity: "normal",
  requires: [],
  failsWhen: 'an experiment has no goal, or names a goal the spec does not define ("did you mean …")',
  why:
    "An experiment without a goal cannot be launched, or runs without ever producing a result; a goal " +
    "name that matches no goal measures nothing.",
  evaluate(context): Judgement[] {
    const experiments = context.spec.experiments;
    if (experiments.length === 0)
      return specWideFinding(context, { status: "skip", message: "The spec defines no experiment." });
    const goalNames = context.spec.goals.map((goal) => goal.name);
    const problems = experiments.flatMap((experiment) => {
      if (experiment.goals.length === 0) return [`"${experiment.name}" has no goal`];
      return experiment.goals
        .filter((goal) => !goalNames.includes(goal))
        .map((goal) => {
          const guess = closestMatch(goal, goalNames);
          return `"${experiment.name}" names goal "${goal}", which the spec does not define${guess === undefined ? "" : ` — did you mean "${guess}"?`}`;
        });
    });
    const evidence = {
      goals: goalNames,
      experiments: experiments.map((experiment) => ({ name: experiment.name, goals: experiment.goals })),
    };
    if (problems.length > 0) {
      const defined =
        goalNames.length > 0 ? `the spec's goals are ${quoteList(goalNames)}` : "the spec defines no goal yet";
      return specWideFinding(context, {
        status: "fail",
        message: `${problems.join("; ")}. Give each experiment at least one goal from the spec's goals (${defined}).`,
        evidence,
      });
    }
    return specWideFinding(context, {
      status: "pass",
      message: `All ${experiments.length} experiment(s) have goals the spec defines.`,
      evidence,
    });
  },
});
