import type { AuditSpec, FillSpec, Step } from "../audit-spec/schema.js";

/**
 * Secrets for closed sites: the spec names the environment variables that hold them (`auth`,
 * `fill.valueEnv`), and they are read from the environment of the run, never from the spec.
 */

/** A variable a spec names for a secret, and where the spec names it (`environments.staging.auth.basic.passwordEnv`). */
export interface SecretVariable {
  name: string;
  where: string;
}

/** The variables that hold the journeys' secret text: a journey's `fill.valueEnv`. */
function stepVariables(steps: readonly Step[], where: string): SecretVariable[] {
  return steps.flatMap((step, index) =>
    "fill" in step && step.fill.valueEnv !== undefined
      ? [{ name: step.fill.valueEnv, where: `${where}[${index}].fill.valueEnv` }]
      : [],
  );
}

/** The steps a spec's `consent` answers its banner with, by where the spec names them (`consent.accept`); none where the rules or a selector answer it. */
export function consentSteps(spec: AuditSpec): { where: string; steps: readonly Step[] }[] {
  const answers = { accept: spec.consent?.accept, reject: spec.consent?.reject };
  return Object.entries(answers).flatMap(([name, answer]) =>
    Array.isArray(answer) ? [{ where: `consent.${name}`, steps: answer }] : [],
  );
}

/** Every variable a run of `environment` reads: its `auth`'s, every page journey's and the consent steps'. */
export function secretVariables(spec: AuditSpec, environment: string): SecretVariable[] {
  const auth = spec.environments[environment]?.auth;
  const at = `environments.${environment}.auth`;
  return [
    ...(auth?.basic
      ? [
          { name: auth.basic.usernameEnv, where: `${at}.basic.usernameEnv` },
          { name: auth.basic.passwordEnv, where: `${at}.basic.passwordEnv` },
        ]
      : []),
    ...Object.entries(auth?.headers ?? {}).map(([header, name]) => ({ name, where: `${at}.headers.${header}` })),
    ...(auth?.cookies ?? []).map((cookie, index) => ({
      name: cookie.valueEnv,
      where: `${at}.cookies[${index}].valueEnv`,
    })),
    ...stepVariables(auth?.login?.steps ?? [], `${at}.login.steps`),
    ...spec.pages.flatMap((page, index) => stepVariables(page.steps, `pages[${index}].steps`)),
    ...consentSteps(spec).flatMap(({ where, steps }) => stepVariables(steps, where)),
  ];
}

/** Shorter secrets are ordinary text too often to be hidden from the outputs without hiding words and numbers with them. */
export const MIN_SCRUBBED_LENGTH = 4;

/** The variables of a run of `environment` (the API key's among them) that hold a secret too short to hide from the outputs, each once. */
export function shortSecretVariables(spec: AuditSpec, environment: string, env: NodeJS.ProcessEnv): SecretVariable[] {
  const variables = [
    ...(spec.api ? [{ name: spec.api.keyEnv, where: "api.keyEnv" }] : []),
    ...secretVariables(spec, environment),
  ];
  const short = variables.filter(
    (variable) => (env[variable.name] ?? "").length > 0 && env[variable.name]!.length < MIN_SCRUBBED_LENGTH,
  );
  return short.filter((variable, index) => short.findIndex((other) => other.name === variable.name) === index);
}

/** The fields a journey types a secret (`valueEnv`) or a canary into, by selector: what every picture of the page masks. */
export function secretFields(steps: readonly Step[]): string[] {
  const selectors = steps.flatMap((step) =>
    "fill" in step && (step.fill.valueEnv !== undefined || step.fill.canary === true) ? [step.fill.selector] : [],
  );
  return [...new Set(selectors)];
}

/** The variables among `variables` that are unset or empty in `env`, each once. */
export function missingVariables(variables: readonly SecretVariable[], env: NodeJS.ProcessEnv): SecretVariable[] {
  const missing = variables.filter((variable) => !env[variable.name]);
  return missing.filter((variable, index) => missing.findIndex((other) => other.name === variable.name) === index);
}

/** The value of a variable the run checked is set. */
export function secretValue(name: string, env: NodeJS.ProcessEnv): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** The text a `fill` step types: its value as written, or its variable's. */
export function typedText(fill: FillSpec, env: NodeJS.ProcessEnv): string {
  return fill.value ?? secretValue(fill.valueEnv!, env);
}

/**
 * Every secret value of the spec that is set in `env`, of every environment: what no output may
 * show. Basic auth's `user:password` is one too, since the Authorization header carries it (in base64).
 */
export function secretValues(spec: AuditSpec, env: NodeJS.ProcessEnv): string[] {
  const values = Object.keys(spec.environments).flatMap((environment) => {
    const basic = spec.environments[environment]!.auth?.basic;
    const pair =
      basic && env[basic.usernameEnv] && env[basic.passwordEnv]
        ? [`${env[basic.usernameEnv]}:${env[basic.passwordEnv]}`]
        : [];
    return [...secretVariables(spec, environment).flatMap((variable) => env[variable.name] ?? []), ...pair];
  });
  return [...new Set(values.filter((value) => value !== ""))];
}
