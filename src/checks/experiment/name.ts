import type { Judgement } from "../../findings/finding.js";
import { defineCheck, specWideFinding } from "../check.js";

// Words that say nothing about what an experiment changes: a name made only of these is vague.
const GENERIC_WORDS = new Set([
  "a",
  "ab",
  "b",
  "abtest",
  "copy",
  "demo",
  "draft",
  "exp",
  "experiment",
  "experiments",
  "foo",
  "bar",
  "my",
  "new",
  "of",
  "sample",
  "split",
  "temp",
  "test",
  "testing",
  "tests",
  "tmp",
  "trial",
  "untitled",
  "v",
  "variant",
  "variation",
  "version",
]);

/** A name shorter than this many characters is too short to say what the experiment tests. */
const SHORTEST_NAME = 8;

/** Why an experiment's name is vague ("a copy's default name", …); null when it says what it tests. */
export function vagueNameReason(name: string): string | null {
  const text = name.trim().toLowerCase();
  const words = text.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
  if (/^copy of\b/.test(text) || /(?:\(copy(?:\s*\d+)?\)|\s-\s*copy(?:\s*\d+)?)$/.test(text))
    return "a copy's default name";
  if (text.startsWith("untitled")) return "a default name";
  if (words.every((word) => GENERIC_WORDS.has(word) || /^\d+$/.test(word))) return "only generic words";
  if (text.length < SHORTEST_NAME) return "too short to say what it tests";
  if (words.length === 1) return "a single word";
  return null;
}

/** experiment.name: every experiment has a name that says what it tests. */
export const experimentName = defineCheck({
  id: "experiment.name",
  scope: "run",
  title: "Experiment names say what they test",
  failureTitle: "An experiment has a vague name",
  family: "Experiments",
  severity: "minor",
  requires: [],
  failsWhen:
    'an experiment\'s name is vague: generic words only ("test 2", "new experiment"), a default ' +
    `("untitled", "Copy of …", "… (copy)"), a single word or under ${SHORTEST_NAME} characters; one finding lists them ` +
    "all",
  why:
    'Results outlive the people who set them up. "test 2" or "Copy of pricing" in a report months later ' +
    "tells nobody what changed, on which page, for whom: results get misread, or the wrong experiment is " +
    "stopped.",
  evaluate(context): Judgement[] {
    const experiments = context.spec.experiments;
    if (experiments.length === 0)
      return specWideFinding(context, { status: "skip", message: "The spec defines no experiment." });
    const vague = experiments.flatMap((experiment) => {
      const reason = vagueNameReason(experiment.name);
      return reason === null ? [] : [{ name: experiment.name, reason }];
    });
    if (vague.length > 0) {
      const list = vague.map(({ name, reason }) => `"${name}" (${reason})`).join(", ");
      return specWideFinding(context, {
        status: "fail",
        message: `Vague experiment name(s): ${list}. Rename each to say what changes and where, like "Pricing CTA copy, short vs long".`,
        evidence: { vague },
      });
    }
    return specWideFinding(context, {
      status: "pass",
      message: `All ${experiments.length} experiment name(s) say what they test.`,
      evidence: { names: experiments.map((experiment) => experiment.name) },
    });
  },
});
