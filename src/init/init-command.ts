import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { findBrowser, BROWSER_ENV, INSTALL_CHROMIUM } from "../browser/launch.js";
import { playwright } from "../browser/playwright.js";
import { auditLaunchOptions } from "../browser/visitor.js";
import { knownViewports } from "../browser/viewports.js";
import { CliError, EXIT, usageError } from "../runner/errors.js";
import { firstLine } from "../text/wording.js";
import { unreachableReason } from "../runner/reachability.js";
import { PACKAGE_ROOT } from "../package/package-root.js";
import { SPEC_SCHEMA_FILE } from "../audit-spec/json-schema.js";
import { parseSpec, formatSpecError } from "../audit-spec/load.js";
import { EXPERIMENT_PRESETS, type ExperimentPresetName } from "../vendors/experiment-presets.js";
import { chooseKey } from "./key-discovery.js";
import { askService } from "./service-project.js";
import { lookAtSite, type LookPlan, type LookResult } from "./site-look.js";
import { draftSpec, KEY_PLACEHOLDER } from "./spec-draft.js";
import { specText, type BasicAuthVariables } from "./spec-text.js";
import {
  gitignoreOffer,
  requireWorkflowWritable,
  workflowWrittenLine,
  writeWorkflow,
  writeWorkflowForKeptSpecs,
} from "./workflow.js";

/** Options of `setup-audit init`. */
export interface InitOptions {
  /** The site to look at; null for `init --workflow` alone (the workflow for the specs in audits/). */
  url: string | null;
  /** The spec file to write; default `audits/<host>.yaml`. */
  out: string | undefined;
  /** How many pages to list, the URL's included. */
  crawl: number;
  /** `--env`; null when not given: a drafted spec's is DEFAULT_ENVIRONMENT, a kept spec's workflow audits its defaultEnvironment. */
  environment: string | null;
  /** Replace the spec when it exists; with `workflow`, the workflow file, never the spec. */
  force: boolean;
  /** The service API to fill the project in from (`--api URL --key-env VAR`); null without. */
  api: { baseUrl: string; keyEnv: string } | null;
  /** `--key-env`: the variable of the API key the workflow passes; null without. */
  keyEnv: string | null;
  /** The variables that hold a Basic-auth site's user name and password (`--basic-env USER_VAR:PASSWORD_VAR`); null without. */
  basic: BasicAuthVariables | null;
  /** Also write the GitHub Actions workflow, .github/workflows/setup-audit.yml (`--workflow`). */
  workflow: boolean;
}

/** The command line's values, as parsed. */
export interface InitArguments {
  urls: string[];
  out?: string | undefined;
  crawl: number | undefined;
  env?: string | undefined;
  force?: boolean | undefined;
  api?: string | undefined;
  "key-env"?: string | undefined;
  "basic-env"?: string | undefined;
  workflow?: boolean | undefined;
}

/** The environment a drafted spec names unless `--env` says another. */
export const DEFAULT_ENVIRONMENT = "production";

/** The options the command line's values ask for; throws a usage error (exit 2) on values that make no sense. */
export function initOptions(args: InitArguments): InitOptions {
  const alone = args.urls.length === 0 && args.workflow === true;
  if (args.urls.length !== 1 && !alone)
    throw usageError(
      "init takes one URL, the page of the site to start from",
      "Example: setup-audit init https://your-site.example (or setup-audit init --workflow for the specs in audits/)",
    );
  const needUrl = (["out", "crawl", "api", "basic-env"] as const).filter((flag) => args[flag] !== undefined);
  if (alone && needUrl.length > 0)
    throw usageError(
      `--${needUrl[0]} goes with a URL: init --workflow alone writes the workflow for the specs in audits/`,
    );
  if ((args.api === undefined) !== (args["key-env"] === undefined) && !alone)
    throw usageError("--api and --key-env go together: the service's API URL and the variable that holds its key");
  const environment = args.env ?? null;
  if (environment !== null && !/^[\w-]+$/.test(environment))
    throw usageError(`--env must be letters, digits, '_' or '-', not "${environment}"`);
  return {
    url: alone ? null : httpUrl(args.urls[0]!, "init's URL"),
    out: args.out,
    crawl: args.crawl ?? 1,
    environment,
    force: Boolean(args.force),
    api: args.api === undefined ? null : { baseUrl: httpUrl(args.api, "--api"), keyEnv: args["key-env"]! },
    keyEnv: args["key-env"] ?? null,
    basic: args["basic-env"] === undefined ? null : basicVariables(args["basic-env"]),
    workflow: Boolean(args.workflow),
  };
}

/** `--basic-env USER_VAR:PASSWORD_VAR`: two variables' names. Not quoted back when wrong: it may hold the secrets themselves. */
function basicVariables(text: string): BasicAuthVariables {
  const names = text.match(/^([A-Za-z_][A-Za-z0-9_]*):([A-Za-z_][A-Za-z0-9_]*)$/);
  if (!names)
    throw usageError(
      "--basic-env must be the NAMES of two environment variables, USER_VAR:PASSWORD_VAR (like STAGING_USER:STAGING_PASSWORD), never the user name and password themselves",
    );
  return { usernameEnv: names[1]!, passwordEnv: names[2]! };
}

function httpUrl(text: string, what: string): string {
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol))
    throw usageError(`${what} must be an http(s) URL, not "${text}"`);
  return text;
}

/** The options of an init that drafts a spec: its URL, and the environment it names. */
type Drafting = Omit<InitOptions, "url" | "environment"> & { url: string; environment: string };

/**
 * `setup-audit init URL`: looks at the site, identifies its SDK and key, lists its pages,
 * records what fired on each on desktop and mobile, and writes a commented spec. With
 * `--workflow`, also the workflow; beside a spec that exists already, or without URL, the
 * workflow alone: the spec is kept as it is.
 */
export async function initCommand(options: InitOptions): Promise<number> {
  if (options.workflow) requireWorkflowWritable(process.cwd(), options.force);
  if (options.url === null) return workflowForKeptSpecs(null, options);
  const file = options.out ?? join("audits", `${new URL(options.url).hostname}.yaml`);
  if (options.workflow && existsSync(file)) return workflowForKeptSpecs(file, options);
  if (existsSync(file) && !options.force)
    throw usageError(
      `${file} exists already, and init keeps it`,
      "Pass --force to replace it, or --out to write another file.",
    );
  return draftSpecFor({ ...options, url: options.url, environment: options.environment ?? DEFAULT_ENVIRONMENT }, file);
}

function workflowForKeptSpecs(specFile: string | null, options: InitOptions): number {
  const root = process.cwd();
  const said = writeWorkflowForKeptSpecs(root, { specFile, environment: options.environment, keyEnv: options.keyEnv });
  const offer = gitignoreOffer(root);
  process.stdout.write(`${said}\n${offer === null ? "" : `${offer}\n`}`);
  return EXIT.ok;
}

async function draftSpecFor(options: Drafting, file: string): Promise<number> {
  if (options.api && !process.env[options.api.keyEnv]?.trim()) {
    throw usageError(
      `--key-env names ${options.api.keyEnv}, which is not set`,
      `Set ${options.api.keyEnv} to the service's API key, then run init again.`,
    );
  }
  const unset = options.basic
    ? [options.basic.usernameEnv, options.basic.passwordEnv].filter((name) => !process.env[name])
    : [];
  if (unset.length > 0)
    throw usageError(
      `--basic-env names ${unset.join(" and ")}, which ${unset.length === 1 ? "is" : "are"} not set`,
      "Set them to the site's user name and password, then run init again.",
    );
  const browser = findBrowser();
  if (!browser.found)
    throw new CliError(
      EXIT.couldNotRun,
      `No browser to look at the site with: ${browser.problem}.`,
      `Run \`${INSTALL_CHROMIUM}\`, or set ${BROWSER_ENV} to a Chromium or Chrome executable.`,
    );
  const reason = await unreachableReason(options.url);
  if (reason !== null)
    throw new CliError(
      EXIT.couldNotRun,
      `Could not reach ${options.url} (${reason}).`,
      "Check the URL and that the site is up, then run init again.",
    );
  const look = await lookInBrowser(browser.executablePath, {
    url: options.url,
    crawl: options.crawl,
    environment: options.environment,
    file,
    basic: options.basic,
  });
  return await writeSpec(look, options, file);
}

/**
 * Looks at the site in a visitor's browser launched for it, closed when done; a problem the look
 * met becomes the CLI's error, and so does anything that stopped it.
 */
async function lookInBrowser(
  executablePath: string | null,
  plan: LookPlan,
): Promise<Extract<LookResult, { ok: true }>> {
  let result: LookResult;
  try {
    const browser = await playwright().chromium.launch(auditLaunchOptions(executablePath));
    try {
      result = await lookAtSite(browser, plan);
    } finally {
      await browser.close();
    }
  } catch (error) {
    throw new CliError(
      EXIT.couldNotRun,
      `The look at the site stopped: ${firstLine(error)}`,
      "Run init again; if it stops again, report it with the URL.",
    );
  }
  if (!result.ok) throw new CliError(result.exitCode, result.message, result.hint);
  return result;
}

async function writeSpec(look: Extract<LookResult, { ok: true }>, options: Drafting, file: string): Promise<number> {
  const baseUrl = new URL(look.finalUrl).origin;
  const key = chooseKey(look.artifacts);
  const service =
    options.api && (await askService({ api: options.api, key: key.installed?.key ?? KEY_PLACEHOLDER, baseUrl }));
  const draft = draftSpec({
    url: options.url,
    baseUrl,
    file,
    schemaPath: schemaPathFrom(file),
    environment: options.environment,
    sdk: look.sdk,
    key,
    pages: look.pages,
    artifacts: look.artifacts,
    service,
    basic: options.basic,
    consent: look.consent,
    journey: look.journey,
    experimentSdk: look.experimentSdk,
  });
  const text = specText(draft);
  const parsed = parseSpec(text, file, knownViewports());
  if (!parsed.ok)
    throw new Error(`init drafted a spec that does not validate: ${parsed.errors.map(formatSpecError).join("; ")}`);
  mkdirSync(dirname(resolve(file)), { recursive: true });
  writeFileSync(file, text);
  const which = look.preset === null ? `window.${parsed.spec.sdk.global}, no preset` : `preset ${look.preset}`;
  const experimenting = draft.experimentSdk && {
    key: experimentKeyWords(parsed.spec.environments[options.environment]?.experimentKey, look.experimentSdk),
    flags: parsed.spec.experiments.filter((experiment) => experiment.flag !== undefined).length,
  };
  process.stdout.write(
    (look.consent
      ? `Met the consent banner of ${look.consent.cmp} and accepted it to see the SDK: the spec's consent section audits it.\n`
      : "") +
      `Wrote ${file}: ${which}, key ${key.installed?.key ?? "not found"}, ${experimenting ? `experimentation SDK ${look.experimentSdk} (${experimenting.key}, ${experimenting.flags} flag(s)), ` : ""}${look.pages.length} page(s)${service?.problem ? `; the service API did not fill the project in: ${service.problem}` : ""}.\n` +
      `Confirm the values marked "# check:", then run \`setup-audit run ${file}\`.\n`,
  );
  if (options.workflow) {
    writeWorkflow(process.cwd(), file, options.environment, options.api?.keyEnv);
    process.stdout.write(`${workflowWrittenLine(options.environment, options.api?.keyEnv)}\n`);
  }
  const offer = gitignoreOffer(process.cwd());
  if (offer !== null) process.stdout.write(`${offer}\n`);
  return EXIT.ok;
}

/** The experimentation SDK's key as init's last words name it: one that logs its flags through the analytics SDK has that one's. */
function experimentKeyWords(key: string | undefined, preset: ExperimentPresetName | null): string {
  if (key !== undefined) return `key ${key}`;
  return preset !== null && EXPERIMENT_PRESETS[preset].logged !== undefined
    ? "the analytics SDK's key"
    : "key not found";
}

/** The shipped JSON Schema's path relative to the written spec, as the yaml-language-server line names it. */
function schemaPathFrom(file: string): string {
  const path = relative(dirname(resolve(file)), join(PACKAGE_ROOT, SPEC_SCHEMA_FILE))
    .split(sep)
    .join("/");
  return path.startsWith(".") ? path : `./${path}`;
}
