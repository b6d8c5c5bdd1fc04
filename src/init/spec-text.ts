import type { LinkJourney } from "./in-app-link.js";

/**
 * The YAML text of a spec init drafted, with a comment beside each value that says where it came
 * from, or, after `# check:`, why it is a guess to confirm.
 */

/** A value and what init says about it. */
export interface Noted<T> {
  value: T;
  /** Where the value came from, or why it is a guess. */
  comment?: string;
  /** True when the value is a guess (or a placeholder) to confirm: the comment starts with `check:`. */
  check?: boolean;
}

/** A goal the service lists; one that did not fire is written as a comment. */
export interface DraftGoal {
  name: string;
  event: string;
  /** False when its event did not fire on every viewport: it is written as a comment, so goals.match does not fail on it. */
  active: boolean;
  comment: string;
}

/** One page of the draft. */
export interface DraftPage {
  id: string;
  path: Noted<string>;
  /** What fired on every viewport; null when nothing did. */
  expect: Noted<{ track: string[]; identify: boolean }> | null;
  /** The journey through an in-app link, on a single-page app; null otherwise. */
  journey: Noted<LinkJourney> | null;
}

/** The `sdk` section: its fields, each with its comment, and comments above them. */
export interface SdkDraft {
  comments: string[];
  fields: { name: string; value: Noted<string | string[] | number | boolean> }[];
}

/** An experiment on a flag the experimentation SDK evaluated. */
export interface DraftExperiment {
  name: Noted<string>;
  page: string;
  selector: Noted<string>;
  flag: Noted<string>;
}

/** The variables that hold a Basic-auth site's user name and password (`init --basic-env USER_VAR:PASSWORD_VAR`). */
export interface BasicAuthVariables {
  usernameEnv: string;
  passwordEnv: string;
}

/** Everything init writes. */
export interface SpecDraft {
  /** The JSON Schema's path relative to the written file. */
  schemaPath: string;
  /** Comment lines under the schema line. */
  header: string[];
  workspace: Noted<string>;
  project: Noted<string>;
  environment: {
    name: string;
    key: Noted<string>;
    projectKey: Noted<string> | null;
    baseUrl: string;
    comments: string[];
    basic: BasicAuthVariables | null;
    /** The key the experimentation SDK's clients were made with; null without one. */
    experimentKey: Noted<string> | null;
  };
  api: {
    baseUrl: string;
    keyEnv: string;
    goalsPath: Noted<string> | null;
    recentEventsPath: Noted<string> | null;
  } | null;
  sdk: SdkDraft;
  /** The experimentation SDK's preset, and the experiments on the flags it evaluated; null when the page has none. */
  experimentSdk: { preset: Noted<string>; experiments: DraftExperiment[] } | null;
  /** The consent banner init met and accepted to see the SDK; null when it met none. */
  consent: { cmp: string } | null;
  goals: DraftGoal[];
  identify: { required: Noted<string[]>; comments: string[] };
  pages: DraftPage[];
}

const YAML_WORDS = /^(?:true|false|yes|no|on|off|null|~|y|n)$/i;

/** A scalar as YAML: plain when that is safe, else double-quoted (JSON's quoting is valid YAML). */
function yamlScalar(value: string | number | boolean): string {
  if (typeof value !== "string") return String(value);
  const plain = /^[A-Za-z_/][\w ./()-]*$/.test(value) && !/ $| #|: /.test(value) && !YAML_WORDS.test(value);
  return plain ? value : JSON.stringify(value);
}

/** A list as a YAML flow sequence: `[a, b]`; items with a space or comma are quoted. */
function flowList(values: readonly string[]): string {
  return `[${values.map((value) => (/[ ,()]/.test(value) ? JSON.stringify(value) : yamlScalar(value))).join(", ")}]`;
}

function value(written: string | number | boolean | readonly string[]): string {
  return Array.isArray(written) ? flowList(written) : yamlScalar(written as string | number | boolean);
}

/** ` # check: why` or ` # where from`, on one line. */
function commentOf(noted: { comment?: string; check?: boolean }): string {
  if (noted.comment === undefined) return "";
  return `  # ${noted.check ? "check: " : ""}${noted.comment.replace(/\s*\n\s*/g, " ")}`;
}

function line(indent: number, key: string, noted: Noted<string | number | boolean | readonly string[]>): string {
  return `${" ".repeat(indent)}${key}: ${value(noted.value)}${commentOf(noted)}`;
}

function comments(indent: number, texts: readonly string[]): string[] {
  return texts.map((text) => `${" ".repeat(indent)}# ${text.replace(/\s*\n\s*/g, " ")}`);
}

function goalItem(goal: DraftGoal): string {
  return `- { name: ${flowList([goal.name]).slice(1, -1)}, event: ${flowList([goal.event]).slice(1, -1)} }`;
}

/** The spec's text: the schema line first, then the header and every section. */
export function specText(draft: SpecDraft): string {
  const { environment, api, sdk } = draft;
  const lines = [
    `# yaml-language-server: $schema=${draft.schemaPath}`,
    ...comments(0, draft.header),
    line(0, "workspace", draft.workspace),
    line(0, "project", draft.project),
    "environments:",
    `  ${environment.name}:`,
    ...comments(4, environment.comments),
    line(4, "key", environment.key),
    ...(environment.projectKey ? [line(4, "projectKey", environment.projectKey)] : []),
    ...(environment.experimentKey ? [line(4, "experimentKey", environment.experimentKey)] : []),
    line(4, "baseUrl", { value: environment.baseUrl }),
    ...(environment.basic
      ? [
          "    auth:",
          `      basic: { usernameEnv: ${environment.basic.usernameEnv}, passwordEnv: ${environment.basic.passwordEnv} }   # the NAMES of the variables that hold them, never the secrets`,
        ]
      : []),
  ];
  if (api) {
    lines.push(
      "api:",
      line(2, "baseUrl", { value: api.baseUrl }),
      line(2, "keyEnv", {
        value: api.keyEnv,
        comment: "the NAME of the variable that holds the API key, never the key",
      }),
    );
    if (api.goalsPath) lines.push(line(2, "goalsPath", api.goalsPath));
    if (api.recentEventsPath) lines.push(line(2, "recentEventsPath", api.recentEventsPath));
  }
  lines.push("sdk:", ...comments(2, sdk.comments), ...sdk.fields.map((field) => line(2, field.name, field.value)));
  if (draft.experimentSdk) lines.push("experimentSdk:", line(2, "preset", draft.experimentSdk.preset));
  if (draft.consent) {
    lines.push(
      `# The site asks for consent before it tracks: init met the banner of ${draft.consent.cmp} and accepted it to see the SDK.`,
      "consent:",
      line(2, "accept", {
        value: "auto",
        comment: "answered by the rules of common consent managers; a selector or steps override them",
      }),
      line(2, "reject", {
        value: "auto",
        comment: "check: audits a unit per page that refuses; nothing may be sent or stored after it",
      }),
      "  gpc: true  # check: audits a unit per page with Global Privacy Control on; tracking it warns",
    );
  }
  lines.push("viewports: [desktop, mobile]");
  const idle = draft.goals.filter((goal) => !goal.active);
  if (idle.length > 0) {
    lines.push(
      "# check: goals the service lists whose event did not fire on every viewport when init loaded the pages;",
    );
    lines.push("# add the page and journey that fire each, then move it into goals:");
    for (const goal of idle) lines.push(`#   ${goalItem(goal)}  # ${goal.comment}`);
  }
  const active = draft.goals.filter((goal) => goal.active);
  lines.push(
    active.length === 0 ? "goals: []" : "goals:",
    ...active.map((goal) => `  ${goalItem(goal)}${commentOf({ comment: goal.comment })}`),
  );
  lines.push("identify:", ...comments(2, draft.identify.comments), line(2, "required", draft.identify.required));
  const experiments = draft.experimentSdk?.experiments ?? [];
  if (experiments.length > 0)
    lines.push(
      "# check: an experiment per flag the pages evaluated: give each its goals, the element it changes, and its",
      "# variations with the ids the SDK names them by.",
      "experiments:",
    );
  for (const experiment of experiments)
    lines.push(
      `  - ${line(0, "name", experiment.name)}`,
      `    page: ${yamlScalar(experiment.page)}`,
      line(4, "selector", experiment.selector),
      line(4, "flag", experiment.flag),
    );
  lines.push("pages:");
  for (const page of draft.pages) {
    lines.push(`  - id: ${yamlScalar(page.id)}`, line(4, "path", page.path));
    if (page.journey !== null) {
      const { click, waitForUrl } = page.journey.value;
      lines.push(
        `    steps:${commentOf(page.journey)}`,
        `      - click: ${yamlScalar(click)}`,
        `      - waitForUrl: ${yamlScalar(waitForUrl)}`,
      );
    }
    if (page.expect === null) continue;
    const { track, identify } = page.expect.value;
    lines.push(`    expect:${commentOf(page.expect)}`);
    if (track.length > 0) lines.push(line(6, "track", { value: track }));
    if (identify) lines.push("      identify: true");
  }
  return `${lines.join("\n")}\n`;
}
