import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { scratchDir } from "./scratch.js";

/**
 * Runs a composite action's steps as GitHub's runner does: each `run:` step is a bash script run
 * with `bash --noprofile --norc -eo pipefail`, its `env:` and the action's inputs' expressions
 * evaluated first, with GITHUB_OUTPUT (a file per step, read into `steps.<id>.outputs`),
 * GITHUB_STEP_SUMMARY, GITHUB_ENV, GITHUB_ACTION_PATH and RUNNER_TEMP set; a `uses:` step is not
 * run, and what it would receive (its `with:`) is kept. A step that fails ends the run, as there.
 * Expressions other than `inputs.*` and `steps.*.outputs.*` are refused, so that an action using
 * one this runner does not know fails its test instead of passing with a wrong value.
 */

interface ActionStep {
  name?: string;
  id?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

/** The parts of action.yml this runner reads. */
interface ActionFile {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

/** What running the action gave. */
export interface ActionRun {
  /** stdout and stderr of every step run, in order: the job's log. */
  log: string;
  /** The action's outputs, as its `outputs:` evaluate after the last step run. */
  outputs: Record<string, string>;
  /** Each `uses:` step that was reached, with the `with:` it would have received. */
  uses: { uses: string; with: Record<string, string> }[];
  /** The step that failed and its exit code; null when every step passed. */
  failed: { step: string; code: number } | null;
  /** The job summary's Markdown. */
  summary: string;
}

/** Runs the action at `actionPath` in `workspace` with the inputs given (the others take their defaults) and the environment given. */
export async function runCompositeAction(
  actionPath: string,
  options: { workspace: string; inputs: Record<string, string>; env: NodeJS.ProcessEnv },
): Promise<ActionRun> {
  const action = parse(readFileSync(join(actionPath, "action.yml"), "utf8")) as ActionFile;
  if (action.runs.using !== "composite") throw new Error(`${actionPath}/action.yml is not a composite action`);
  const unknown = Object.keys(options.inputs).filter((name) => !(name in action.inputs));
  if (unknown.length > 0) throw new Error(`action.yml has no input ${unknown.join(", ")}`);
  const inputs = Object.fromEntries(
    Object.entries(action.inputs).map(([name, input]) => [name, options.inputs[name] ?? input.default ?? ""]),
  );
  const work = scratchDir("setup-audit-action");
  const summaryFile = join(work, "step-summary.md");
  writeFileSync(summaryFile, "");
  const steps: Record<string, Record<string, string>> = {};
  const evaluate = (text: string) => evaluated(text, inputs, steps);
  const run: ActionRun = { log: "", outputs: {}, uses: [], failed: null, summary: "" };

  for (const [index, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.id ?? `step ${index + 1}`;
    if (step.uses) {
      run.uses.push({
        uses: step.uses,
        with: Object.fromEntries(Object.entries(step.with ?? {}).map(([key, value]) => [key, evaluate(String(value))])),
      });
      continue;
    }
    if (step.shell !== "bash" || step.run === undefined)
      throw new Error(`step "${name}" is neither a bash run step nor a uses step`);
    const outputFile = join(work, `output-${index}`);
    const scriptFile = join(work, `step-${index}.sh`);
    writeFileSync(outputFile, "");
    writeFileSync(scriptFile, step.run);
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([key, value]) => [key, evaluate(String(value))]),
    );
    const env = {
      ...options.env,
      GITHUB_ACTIONS: "true",
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ENV: join(work, "env"),
      RUNNER_TEMP: work,
      ...stepEnv,
    };
    const { code, output } = await bash(scriptFile, options.workspace, env);
    run.log += output;
    if (step.id) steps[step.id] = stepOutputs(readFileSync(outputFile, "utf8"));
    if (code !== 0) {
      run.failed = { step: name, code };
      break;
    }
  }
  run.outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, output]) => [name, evaluate(output.value)]),
  );
  run.summary = readFileSync(summaryFile, "utf8");
  return run;
}

/** `${{ … }}` replaced as Actions does for the expressions this runner knows; a step's output not set is empty. */
function evaluated(
  text: string,
  inputs: Record<string, string>,
  steps: Record<string, Record<string, string>>,
): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expression: string) => {
    const input = expression.match(/^inputs\.([\w-]+)$/);
    if (input) {
      if (!(input[1]! in inputs)) throw new Error(`the expression ${expression} names no input of the action`);
      return inputs[input[1]!]!;
    }
    const output = expression.match(/^steps\.([\w-]+)\.outputs\.([\w-]+)$/);
    if (output) return steps[output[1]!]?.[output[2]!] ?? "";
    throw new Error(`this runner does not evaluate the expression ${expression}`);
  });
}

/** The `name=value` lines (and `name<<DELIMITER` blocks) of a GITHUB_OUTPUT file. */
function stepOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const block = line.match(/^([\w-]+)<<(.+)$/);
    if (block) {
      const end = lines.indexOf(block[2]!, index + 1);
      outputs[block[1]!] = lines.slice(index + 1, end).join("\n");
      index = end;
    } else if (line.includes("=")) {
      outputs[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return outputs;
}

function bash(scriptFile: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", scriptFile], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}
