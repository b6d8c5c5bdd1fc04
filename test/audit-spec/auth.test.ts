import { expect, test } from "@playwright/test";
import { knownViewports } from "../../src/browser/viewports.js";
import { formatSpecError, parseSpec, type SpecParseResult } from "../../src/audit-spec/load.js";
import { MINIMAL, minimalWith } from "../support/spec-text.js";

/**
 * A closed site's `auth` and the journeys' `fill.valueEnv`: secrets come only from the
 * variables the spec names, so a value that is not a variable's name is an error that points at
 * it and never quotes it.
 */

/** The minimal spec with `auth` lines under its environment (`auth:` is line 7, its first line 8) and `steps` lines under its page (from line 17). */
function specText(auth: readonly string[], steps: readonly string[] = []): string {
  const authLines = auth.length > 0 ? ["    auth:", ...auth.map((line) => `      ${line}`)] : [];
  return minimalWith(
    { 6: [MINIMAL[5]!, ...authLines] },
    ...(steps.length > 0 ? ["    steps:", ...steps.map((line) => `      ${line}`)] : []),
  );
}

function parse(text: string): SpecParseResult {
  return parseSpec(text, "/specs/spec.yaml", knownViewports());
}

function printed(result: SpecParseResult): string[] {
  if (result.ok) throw new Error("expected the spec to be invalid");
  return result.errors.map((error) => formatSpecError({ ...error, file: "spec.yaml" }));
}

const LOGIN = [
  "login:",
  "  path: /login",
  "  steps:",
  '    - fill: { selector: "#user", valueEnv: STAGING_USER }',
  '    - fill: { selector: "#password", valueEnv: STAGING_PASSWORD }',
  '    - click: "#sign-in"',
  '    - waitFor: "#account-menu"',
];

test("every way in parses, the storage state resolved beside the spec and the login's hosts in lower case", () => {
  const result = parse(
    specText([
      "basic: { usernameEnv: STAGING_USER, passwordEnv: STAGING_PASSWORD }",
      "headers: { X-Preview-Token: PREVIEW_TOKEN }",
      "cookies: [{ name: preview, valueEnv: PREVIEW_COOKIE }]",
      "storageState: .auth/staging.json",
      ...LOGIN,
      "  hosts: [SSO.example.test]",
    ]),
  );
  if (!result.ok) throw new Error(result.errors.map(formatSpecError).join("\n"));
  expect(result.spec.environments.staging!.auth).toEqual({
    basic: { usernameEnv: "STAGING_USER", passwordEnv: "STAGING_PASSWORD" },
    headers: { "X-Preview-Token": "PREVIEW_TOKEN" },
    cookies: [{ name: "preview", valueEnv: "PREVIEW_COOKIE" }],
    storageState: "/specs/.auth/staging.json",
    login: {
      path: "/login",
      hosts: ["sso.example.test"],
      steps: [
        { fill: { selector: "#user", valueEnv: "STAGING_USER" } },
        { fill: { selector: "#password", valueEnv: "STAGING_PASSWORD" } },
        { click: "#sign-in" },
        { waitFor: "#account-menu" },
      ],
    },
  });
});

test.describe("a secret where a variable's name belongs", () => {
  for (const [where, line, path, column, holds] of [
    [
      "a Basic password",
      "basic: { usernameEnv: STAGING_USER, passwordEnv: stage-Pass-7741 }",
      "basic.passwordEnv",
      56,
      "the password (like STAGING_PASSWORD), never the password itself",
    ],
    [
      "a header's value",
      "headers: { X-Preview-Token: tok_9f3c2a71e05b! }",
      "headers.X-Preview-Token",
      35,
      "the header's value (like PREVIEW_TOKEN), never the header's value itself",
    ],
    [
      "a cookie's value",
      "cookies: [{ name: preview, valueEnv: 'a b c' }]",
      "cookies[0].valueEnv",
      44,
      "the cookie's value (like PREVIEW_COOKIE), never the cookie's value itself",
    ],
    [
      "a number",
      "basic: { usernameEnv: STAGING_USER, passwordEnv: 77410042 }",
      "basic.passwordEnv",
      56,
      "the password (like STAGING_PASSWORD), never the password itself",
    ],
  ] as const) {
    test(`is an error at its place that never quotes it: ${where}`, () => {
      const [error, ...others] = printed(parse(specText([line])));
      expect(error).toBe(
        `spec.yaml:8:${column} environments.staging.auth.${path}: must be the NAME of an environment variable that holds ${holds}`,
      );
      expect(others).toEqual([]);
    });
  }

  test("in a journey's fill is an error at its place that never quotes it", () => {
    const errors = printed(parse(specText([], ['- fill: { selector: "#pw", valueEnv: "hunter2 and more" }'])));
    expect(errors).toEqual([
      "spec.yaml:17:44 pages[0].steps[0].fill.valueEnv: must be the NAME of an environment variable that holds the text to type (like STAGING_PASSWORD), never the text to type itself",
    ]);
    expect(errors.join("\n")).not.toContain("hunter2");
  });

  test("in the login's steps is an error too", () => {
    const login = LOGIN.map((line) => line.replace("valueEnv: STAGING_PASSWORD", "valueEnv: p@ss w0rd"));
    expect(printed(parse(specText(login)))).toEqual([
      "spec.yaml:12:54 environments.staging.auth.login.steps[1].fill.valueEnv: must be the NAME of an environment variable that holds the text to type (like STAGING_PASSWORD), never the text to type itself",
    ]);
  });
});

test("a secret's own key where its variable's belongs says so, and only that", () => {
  expect(printed(parse(specText(["basic: { usernameEnv: STAGING_USER, password: stage-Pass-7741 }"])))).toEqual([
    'spec.yaml:8:43 environments.staging.auth.basic: unknown key "password" — never put a secret in the spec: put it in an environment variable and name that variable in passwordEnv',
  ]);
  expect(printed(parse(specText(["cookies: [{ name: preview, value: tok_9f3c2a71e05b }]"])))).toEqual([
    'spec.yaml:8:34 environments.staging.auth.cookies[0]: unknown key "value" — never put a secret in the spec: put it in an environment variable and name that variable in valueEnv',
  ]);
});

test("a fill types its value or its variable's, one of them", () => {
  const steps = (fill: string) => specText([], [`- fill: ${fill}`]);
  expect(printed(parse(steps('{ selector: "#pw", value: x, valueEnv: STAGING_PASSWORD }')))).toEqual([
    "spec.yaml:17:15 pages[0].steps[0].fill: needs value (the text typed, as written) or valueEnv (the NAME of the variable that holds it, for a secret), one of them",
  ]);
  expect(printed(parse(steps('{ selector: "#pw" }')))).toEqual([
    "spec.yaml:17:15 pages[0].steps[0].fill: needs value (the text typed, as written) or valueEnv (the NAME of the variable that holds it, for a secret), one of them",
  ]);
  expect(parse(steps('{ selector: "#pw", valueEnv: STAGING_PASSWORD, canary: true }')).ok).toBe(true);
});

test("an auth without a way in, a login without steps or waiting for an event, a host with a scheme and a browser's header are errors", () => {
  expect(printed(parse(minimalWith({ 6: [MINIMAL[5]!, "    auth: {}"] })))).toEqual([
    "spec.yaml:7:11 environments.staging.auth: names no way in: give basic, headers, cookies, storageState or login (see the README's Closed sites), or leave auth out",
  ]);
  expect(printed(parse(specText(["login: { path: /login, steps: [] }"])))).toEqual([
    "spec.yaml:8:37 environments.staging.auth.login.steps: needs at least one step: fill the form, submit it, and waitFor what only a signed-in page shows",
  ]);
  expect(printed(parse(specText(["login: { path: /login, steps: [{ waitForEvent: signed_in }] }"])))).toEqual([
    "spec.yaml:8:37 environments.staging.auth.login.steps: waits for elements (waitFor), not for SDK calls (waitForEvent): the login is no audited page",
  ]);
  expect(printed(parse(specText([...LOGIN, "  hosts: [https://sso.example.test]"])))).toEqual([
    "spec.yaml:15:17 environments.staging.auth.login.hosts[0]: must be a host name, like sso.example.test (no scheme, port or path)",
  ]);
  expect(printed(parse(specText(["headers: { Cookie: SESSION }"])))).toEqual([
    'spec.yaml:8:18 environments.staging.auth.headers: "Cookie" is not a valid name: is a header the browser writes itself: use auth.cookies for cookies',
  ]);
});
