import { expect, test } from "@playwright/test";
import { secretsOf } from "../../src/privacy/redact.js";
import {
  missingVariables,
  secretFields,
  secretVariables,
  shortSecretVariables,
  typedText,
} from "../../src/privacy/secrets.js";
import { specWith } from "../support/artifacts.js";

const spec = specWith({
  environments: {
    staging: {
      key: "prj_demo_staging",
      baseUrl: "http://127.0.0.1:47412",
      auth: {
        basic: { usernameEnv: "STAGING_USER", passwordEnv: "STAGING_PASSWORD" },
        headers: { "X-Preview-Token": "PREVIEW_TOKEN" },
        cookies: [{ name: "preview", valueEnv: "PREVIEW_COOKIE" }],
        login: {
          path: "/login",
          steps: [
            { fill: { selector: "#user", valueEnv: "STAGING_USER" } },
            { fill: { selector: "#password", valueEnv: "LOGIN_PASSWORD" } },
            { click: "#go" },
          ],
        },
      },
    },
    production: {
      key: "prj_demo_prod",
      baseUrl: "https://shop.example.test",
      auth: { headers: { "X-Preview-Token": "PROD_TOKEN" } },
    },
  },
  defaultEnvironment: "staging",
  pages: [
    {
      id: "signup",
      path: "/signup",
      steps: [
        { fill: { selector: "#email", value: "qa@example.test" } },
        { fill: { selector: "#code", valueEnv: "INVITE_CODE" } },
      ],
    },
  ],
});

test("a run of an environment needs the variables of its auth and of every journey, each named where the spec names it", () => {
  expect(secretVariables(spec, "staging")).toEqual([
    { name: "STAGING_USER", where: "environments.staging.auth.basic.usernameEnv" },
    { name: "STAGING_PASSWORD", where: "environments.staging.auth.basic.passwordEnv" },
    { name: "PREVIEW_TOKEN", where: "environments.staging.auth.headers.X-Preview-Token" },
    { name: "PREVIEW_COOKIE", where: "environments.staging.auth.cookies[0].valueEnv" },
    { name: "STAGING_USER", where: "environments.staging.auth.login.steps[0].fill.valueEnv" },
    { name: "LOGIN_PASSWORD", where: "environments.staging.auth.login.steps[1].fill.valueEnv" },
    { name: "INVITE_CODE", where: "pages[0].steps[1].fill.valueEnv" },
  ]);
  // Another environment's secrets are not this run's.
  expect(secretVariables(spec, "production").map((variable) => variable.name)).toEqual(["PROD_TOKEN", "INVITE_CODE"]);
});

test("a variable unset or empty is missing, each once", () => {
  const missing = missingVariables(secretVariables(spec, "staging"), {
    STAGING_PASSWORD: "x",
    PREVIEW_TOKEN: "",
    PREVIEW_COOKIE: "c",
    LOGIN_PASSWORD: "p",
    INVITE_CODE: "i",
  });
  expect(missing).toEqual([
    { name: "STAGING_USER", where: "environments.staging.auth.basic.usernameEnv" },
    { name: "PREVIEW_TOKEN", where: "environments.staging.auth.headers.X-Preview-Token" },
  ]);
});

test("a fill types its value as written, or its variable's", () => {
  expect(typedText({ selector: "#email", value: "qa@example.test" }, {})).toBe("qa@example.test");
  expect(typedText({ selector: "#code", valueEnv: "INVITE_CODE" }, { INVITE_CODE: "inv-42" })).toBe("inv-42");
  expect(() => typedText({ selector: "#code", valueEnv: "INVITE_CODE" }, {})).toThrow("INVITE_CODE is not set");
});

test("consent steps that type a secret need its variable and have it scrubbed, like a journey's; they type no canary", () => {
  const withConsent = specWith({
    consent: {
      accept: [{ fill: { selector: "#age", valueEnv: "CMP_PIN" } }, { click: "#ok" }],
      reject: [{ fill: { selector: "#note", value: "no-thanks-42" } }, { click: "#no" }],
    },
  });
  expect(secretVariables(withConsent, "staging")).toEqual([
    { name: "CMP_PIN", where: "consent.accept[0].fill.valueEnv" },
  ]);
  expect(secretsOf(withConsent, { CMP_PIN: "4711-pin" })).toEqual(expect.arrayContaining(["4711-pin", "no-thanks-42"]));
  expect(() =>
    specWith({ consent: { accept: [{ fill: { selector: "#x", value: "canary-1", canary: true } }] } }),
  ).toThrow(/types no canary/);
});

test("the fields a journey types a secret or a canary into are masked in pictures; a literal value's field is not", () => {
  const steps = [
    { fill: { selector: "#email", value: "qa@example.test" } },
    { fill: { selector: "#code", valueEnv: "INVITE_CODE" } },
    { fill: { selector: "#phone", value: "+15550100", canary: true } },
    { click: "#go" },
    { fill: { selector: "#code", valueEnv: "INVITE_CODE" } },
  ];
  expect(secretFields(steps)).toEqual(["#code", "#phone"]);
  expect(secretFields([])).toEqual([]);
});

test("a variable set to fewer than 4 characters is short, the API key's included, each once; an unset one is not", () => {
  const withApi = { ...spec, api: { ...spec.api, keyEnv: "SERVICE_API_KEY" } } as typeof spec;
  const env = {
    SERVICE_API_KEY: "k1",
    STAGING_USER: "ab",
    STAGING_PASSWORD: "long-enough",
    PREVIEW_TOKEN: "",
    INVITE_CODE: "abcd",
  };
  expect(shortSecretVariables(withApi, "staging", env)).toEqual([
    { name: "SERVICE_API_KEY", where: "api.keyEnv" },
    { name: "STAGING_USER", where: "environments.staging.auth.basic.usernameEnv" },
  ]);
});
