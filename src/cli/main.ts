import { existsSync, statSync } from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliError, EXIT, usageError } from "../runner/errors.js";

/**
 * The command line: each command's flags are parsed by node:util's parseArgs. Its one gap is an
 * optional value, which `--baseline [FILE]` needs: withOptionalValue fills it in before parsing,
 * and looks at the filesystem because docs/ci.md (Baselines) defines FILE as the next argument
 * unless that is a flag, a spec or an existing folder (`merge --baseline reports-1 reports-2`). CLI libraries
 * with optional values (commander's `[file]`) take any next argument that is not a flag, specs
 * and folders included, so they would need the same step; parseArgs comes with Node.
 */

const HELP = `setup-audit — audit a site's setup for the experimentation service

Usage:
  setup-audit init URL          look at a site and write a commented spec for it (default: audits/<host>.yaml)
      --out FILE                the spec file to write
      --crawl N                 list up to N pages, following the site's links breadth first (default: 1)
      --env NAME                the environment's name (default: production)
      --force                   replace the file when it exists
      --api URL --key-env VAR   fill workspace, project and goals in from the service API, its key in VAR
      --basic-env USER_VAR:PASSWORD_VAR   get into a Basic-auth site with the user name and password in
                                these variables (the spec's auth section names them)
      --workflow                also write .github/workflows/setup-audit.yml: the audit nightly and on
                                each pull request, with this environment; beside a spec that exists,
                                or without URL (every spec in audits/), the workflow alone, the spec
                                kept (--force then replaces the workflow, never the spec)
  setup-audit run [SPEC…]       audit (default: every spec in audits/*.yaml, tracking plans left out)
      --env NAME                environment to audit (default: the spec's defaultEnvironment)
      --viewport NAME           desktop, mobile or a Playwright device name (repeatable)
      --page ID                 only this page (repeatable)
      --workers N               parallel browsers (default: 2, or half the CPU cores when more)
      --shard I/N               run only shard I of N
      --strict                  warnings fail the run too
      --out DIR                 output folder (default: reports/)
      --base-url URL            audit this base URL instead of the environment's
      --trace                   keep Playwright traces (they hold raw page traffic)
      --single-file             also write the shareable OUT/audit-report.html
      --open                    open the shareable report when done (implies --single-file)
      --no-html                 build no HTML report (a shard's, which the merge builds again);
                                \`setup-audit report\` builds it later from the Allure results
      --browser-endpoint WS     use a Playwright browser server (ws://…) instead of a local browser
      --baseline [FILE]         fail when an event of the baseline stopped firing, warn on new ones
                                (default FILE: beside each spec, SPEC.ENV.baseline.json)
      --save-artifacts          keep what was gathered in OUT/artifacts/ (it holds page traffic; the
                                API key and a closed site's secrets are redacted)
      --compare DIR             compare with the run in DIR (default: the last run of each spec ×
                                environment in OUT/history/findings.jsonl); summary.json's changes
      --fail-on new|any         new: only failures new or worse than in that run fail (default: any)
      --notify-env VAR          when something changed, post a Slack-compatible message to the
                                webhook URL in the variable VAR
  setup-audit run [SPEC…] --from-artifacts DIR
                                judge the artifacts saved in DIR (an earlier --out) with the current
                                specs and checks, opening no page; default SPEC: those saved. --env,
                                --page, --viewport pick among what was saved; --out, --strict,
                                --baseline, --single-file, --open, --no-html, --compare, --fail-on
                                and --notify-env as for run
  setup-audit merge DIR…        merge the --out folders of --shard runs into one result
      --out DIR                 output folder (default: reports/)
      --strict, --single-file, --open, --no-html, --baseline [FILE]   as for run
      --compare DIR, --fail-on new|any, --notify-env VAR   as for run, on the merged result
  setup-audit baseline          store which events fired in a good run (OUT/summary.json) as its baseline
      --out DIR                 the run's output folder (default: reports/)
      --file FILE               one file for all its specs (default: beside each spec, SPEC.ENV.baseline.json)
      --force                   store it even though the run failed
  setup-audit validate [SPEC…]  check specs only; prints each error as file:line:col
  setup-audit plan draft        write a tracking plan from the calls of a run saved with --save-artifacts
      --from DIR                the run's output folder (default: reports/)
      --out FILE                the plan file to write (default: tracking-plan.yaml)
      --force                   replace the file when it exists
  setup-audit report            build the HTML report of the last run: OUT/html/
      --out DIR                 the run's output folder (default: reports/)
      --single-file             also write one self-contained OUT/audit-report.html to share
      --open                    open it in the desktop's browser (implies --single-file)
  setup-audit schema            print the spec's JSON Schema (shipped as audits/spec.schema.json)
  setup-audit schema --summary  print summary.json's JSON Schema (shipped as audits/summary.schema.json)
  setup-audit demo              audit the bundled demo shop against the bundled mock service, offline
      --out DIR                 output folder (default: reports/)
  setup-audit --version         setup-audit's version
  setup-audit --help            this text

Exit codes: 0 no failed check, 1 a check failed, 2 invalid spec or flags, 3 could not run.`;

type Command = (args: string[]) => Promise<number>;

// Each command loads its modules when it runs: `--help` and a mistyped flag answer at once, and
// `run` loads what it needs after the browsers only once they started (see run.ts).

const COMMANDS: Record<string, Command> = {
  async init(args) {
    const { values, positionals } = parse(args, {
      out: { type: "string" },
      crawl: { type: "string" },
      env: { type: "string" },
      force: { type: "boolean" },
      api: { type: "string" },
      "key-env": { type: "string" },
      "basic-env": { type: "string" },
      workflow: { type: "boolean" },
    });
    const { initCommand, initOptions } = await import("../init/init-command.js");
    return initCommand(initOptions({ ...values, urls: positionals, crawl: positiveInteger(values.crawl, "--crawl") }));
  },
  async run(args) {
    const { values, positionals } = parse(withOptionalValue(args, "--baseline"), {
      env: { type: "string" },
      viewport: { type: "string", multiple: true },
      page: { type: "string", multiple: true },
      workers: { type: "string" },
      shard: { type: "string" },
      strict: { type: "boolean" },
      out: { type: "string" },
      "base-url": { type: "string" },
      trace: { type: "boolean" },
      "single-file": { type: "boolean" },
      open: { type: "boolean" },
      "no-html": { type: "boolean" },
      "browser-endpoint": { type: "string" },
      baseline: { type: "string" },
      "save-artifacts": { type: "boolean" },
      "from-artifacts": { type: "string" },
      ...CHANGE_FLAGS,
    });
    const replayFrom = values["from-artifacts"];
    if (replayFrom !== undefined) {
      const gathering = ["workers", "shard", "base-url", "trace", "browser-endpoint", "save-artifacts"].filter(
        (flag) => values[flag as keyof typeof values] !== undefined,
      );
      if (gathering.length > 0) {
        throw usageError(
          `--from-artifacts judges artifacts gathered earlier, so --${gathering[0]} (a choice of how to gather) does not apply`,
          "Leave it out, or gather again without --from-artifacts.",
        );
      }
      const { replayAudit } = await import("./replay.js");
      return replayAudit(replayFrom, {
        ...selectionOf(positionals, values),
        ...publishingOf(values),
        changes: await changesOf(values),
      });
    }
    if (values["save-artifacts"] && values.shard !== undefined) {
      throw usageError(
        "--save-artifacts keeps a whole run's artifacts, not a shard's",
        "Save them from a run without --shard.",
      );
    }
    const comparing = Object.keys(CHANGE_FLAGS).find((flag) => values[flag as keyof typeof values] !== undefined);
    if (comparing && values.shard !== undefined) {
      throw usageError(
        `--${comparing} is for a whole run, not a shard: the merge compares the merged result`,
        `Give --${comparing} to \`setup-audit merge\`.`,
      );
    }
    const { runAudit } = await import("./run.js");
    return runAudit({
      ...selectionOf(positionals, values),
      ...publishingOf(values),
      workers: positiveInteger(values.workers, "--workers"),
      shard: shard(values.shard),
      baseUrl: baseUrl(values["base-url"]),
      trace: Boolean(values.trace),
      saveArtifacts: Boolean(values["save-artifacts"]),
      browserEndpoint: browserEndpoint(values["browser-endpoint"]),
      changes: await changesOf(values),
    });
  },
  async merge(args) {
    const { values, positionals } = parse(withOptionalValue(args, "--baseline"), {
      out: { type: "string" },
      strict: { type: "boolean" },
      "single-file": { type: "boolean" },
      open: { type: "boolean" },
      "no-html": { type: "boolean" },
      baseline: { type: "string" },
      ...CHANGE_FLAGS,
    });
    const { mergeShards } = await import("./shards.js");
    return mergeShards(positionals, { ...publishingOf(values), changes: await changesOf(values) });
  },
  async baseline(args) {
    const { values, positionals } = parse(args, {
      out: { type: "string" },
      file: { type: "string" },
      force: { type: "boolean" },
    });
    if (positionals.length > 0)
      throw usageError(`baseline takes no spec ("${positionals[0]}"): it reads the summary.json of the run in --out`);
    const { baselineCommand } = await import("./baseline.js");
    return baselineCommand({ out: values.out ?? "reports", file: values.file ?? null, force: Boolean(values.force) });
  },
  async plan(args) {
    const { values, positionals } = parse(args, {
      from: { type: "string" },
      out: { type: "string" },
      force: { type: "boolean" },
    });
    if (positionals[0] !== "draft" || positionals.length > 1)
      throw usageError(
        `plan takes one subcommand, draft (not ${positionals.length === 0 ? "none" : `"${positionals.join(" ")}"`})`,
        "Run `setup-audit plan draft` to write a tracking plan from a saved run.",
      );
    const { planDraftCommand } = await import("./plan-draft.js");
    return planDraftCommand({
      from: values.from ?? "reports",
      out: values.out ?? "tracking-plan.yaml",
      force: Boolean(values.force),
    });
  },
  async validate(args) {
    const { positionals } = parse(args, {});
    const { validateSpecs } = await import("./validate.js");
    return validateSpecs(positionals);
  },
  async schema(args) {
    const { values, positionals } = parse(args, { summary: { type: "boolean" } });
    if (positionals.length > 0)
      throw usageError(
        `schema takes no argument ("${positionals[0]}"): it prints the JSON Schema of every spec, or of summary.json with --summary`,
      );
    if (values.summary) {
      const { summaryJsonSchemaText } = await import("../results/summary-schema.js");
      process.stdout.write(summaryJsonSchemaText());
    } else {
      const { specJsonSchemaText } = await import("../audit-spec/json-schema.js");
      process.stdout.write(specJsonSchemaText());
    }
    return EXIT.ok;
  },
  async demo(args) {
    const { values, positionals } = parse(args, { out: { type: "string" } });
    if (positionals.length > 0)
      throw usageError(`demo takes no spec ("${positionals[0]}"): it audits the bundled demo shop`);
    const { runDemo } = await import("./demo.js");
    return runDemo({ out: values.out ?? "reports" });
  },
  async report(args) {
    const { values, positionals } = parse(args, {
      out: { type: "string" },
      "single-file": { type: "boolean" },
      open: { type: "boolean" },
    });
    if (positionals.length > 0)
      throw usageError(`report takes no spec ("${positionals[0]}"): it reads the results of the last run in --out`);
    const { reportCommand } = await import("./report.js");
    return reportCommand({
      out: values.out ?? "reports",
      singleFile: Boolean(values["single-file"]),
      open: Boolean(values.open),
    });
  },
};

/** What a run audits: the specs named (none: every spec found), and the command line's --env, --viewport and --page. */
function selectionOf(specs: string[], values: { env?: string; viewport?: string[]; page?: string[] }) {
  return { specs, env: values.env, viewports: values.viewport ?? [], pages: values.page ?? [] };
}

/** How a command that judges writes what it found: --out, --strict, --single-file, --open, --no-html and --baseline [FILE]. */
function publishingOf(values: {
  out?: string;
  strict?: boolean;
  "single-file"?: boolean;
  open?: boolean;
  "no-html"?: boolean;
  baseline?: string;
}) {
  const report = (["single-file", "open"] as const).find((flag) => values[flag]);
  if (values["no-html"] && report !== undefined)
    throw usageError(
      `--no-html builds no HTML report, so --${report} has none to ${report === "open" ? "open" : "write"}`,
      "Leave one of them out.",
    );
  return {
    out: values.out ?? "reports",
    strict: Boolean(values.strict),
    singleFile: Boolean(values["single-file"]),
    open: Boolean(values.open),
    html: !values["no-html"],
    baseline: values.baseline === undefined ? null : { file: values.baseline || null },
  };
}

/** The flags with which a whole run or a merge compares itself with an earlier run (docs/ci.md, Changes). */
const CHANGE_FLAGS = {
  compare: { type: "string" },
  "fail-on": { type: "string" },
  "notify-env": { type: "string" },
} as const;

/** --compare, --fail-on and --notify-env, checked; --compare's run read at once. */
async function changesOf(values: { compare?: string; "fail-on"?: string; "notify-env"?: string }) {
  const { changeOptionsOf } = await import("./changes.js");
  return changeOptionsOf(values);
}

/** Runs the CLI; returns the exit code. Every expected failure prints one line on what to do. */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${HELP}\n`);
    return name === undefined ? EXIT.invalid : EXIT.ok;
  }
  if (name === "--version") {
    const { toolVersion } = await import("../package/version.js");
    process.stdout.write(`${toolVersion()}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  try {
    if (!command) throw usageError(`Unknown command "${name}"`, `Commands: ${Object.keys(COMMANDS).join(", ")}.`);
    return await command(args);
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`setup-audit: ${error.message}\n${error.hint}\n`);
      return error.exitCode;
    }
    process.stderr.write(
      `setup-audit: unexpected error: ${(error as Error)?.stack ?? String(error)}\nThis is a bug in setup-audit: please report it with the command and spec you ran.\n`,
    );
    return EXIT.couldNotRun;
  }
}

function parse<const T extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true } as const);
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/**
 * parseArgs has no optional values: `FLAG` alone becomes `FLAG=` (an empty value), and the
 * argument after it is its value unless that is another flag, a spec (`.yaml`, `.yml`) or a folder.
 */
function withOptionalValue(args: readonly string[], flag: string): string[] {
  const rewritten: string[] = [];
  for (let index = 0; index < args.length; index++) {
    if (args[index] === "--") return [...rewritten, ...args.slice(index)];
    if (args[index] !== flag) {
      rewritten.push(args[index]!);
      continue;
    }
    const next = args[index + 1];
    // A spec or a shard's folder after the flag is an argument, not the baseline file.
    const isValue = next !== undefined && !next.startsWith("-") && !/\.ya?ml$/i.test(next) && !isDirectory(next);
    rewritten.push(`${flag}=${isValue ? next : ""}`);
    if (isValue) index++;
  }
  return rewritten;
}

function positiveInteger(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw usageError(`${flag} must be a whole number of at least 1, not "${text}"`);
  return value;
}

function browserEndpoint(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!URL.canParse(text) || !/^wss?:$/.test(new URL(text).protocol))
    throw usageError(`--browser-endpoint must be a ws:// or wss:// URL of a Playwright browser server, not "${text}"`);
  return text;
}

function shard(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const match = text.match(/^(\d+)\/(\d+)$/);
  if (!match || Number(match[1]) < 1 || Number(match[1]) > Number(match[2])) {
    throw usageError(`--shard must look like 1/3 (shard I of N, 1 ≤ I ≤ N), not "${text}"`);
  }
  return text;
}

function baseUrl(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol))
    throw usageError(`--base-url must be an http(s) URL, not "${text}"`);
  return text;
}
