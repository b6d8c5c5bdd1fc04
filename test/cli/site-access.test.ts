import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { requireSiteAccess } from "../../src/cli/site-access.js";
import type { AuditTarget } from "../../src/schedule/plan.js";
import { specWith, plannedTarget } from "../support/artifacts.js";
import { scratchDir } from "../support/scratch.js";

/** `run`'s refusal (exit 2) of a closed site it could not get into, before any browser starts. */

function targetWith(auth: Record<string, unknown>): AuditTarget {
  const spec = specWith({
    environments: { staging: { key: "prj_demo_staging", baseUrl: "http://127.0.0.1:47412", auth } },
  });
  return plannedTarget(spec, { pages: ["home"], viewports: ["desktop"] });
}

const basic = { basic: { usernameEnv: "STAGING_USER", passwordEnv: "STAGING_PASSWORD" } };

test("an unset or empty variable stops the run, named with where the spec names it and what to do", () => {
  expect(() => requireSiteAccess([targetWith(basic)], { STAGING_USER: "qa", STAGING_PASSWORD: "" })).toThrow(
    expect.objectContaining({
      exitCode: 2,
      message:
        "STAGING_PASSWORD is not set, or empty: the spec names it for its secrets (audits/shop.yaml: environments.staging.auth.basic.passwordEnv).",
      hint: "Set it to the secret in the run's environment (export STAGING_PASSWORD=… in a shell, the CI's secrets in CI); a spec names the variables, never the secrets.",
    }),
  );
  expect(() => requireSiteAccess([targetWith(basic)], {})).toThrow(
    /^STAGING_USER, STAGING_PASSWORD are not set, or empty: the spec names them/,
  );
  expect(() => requireSiteAccess([targetWith(basic)], { STAGING_USER: "qa", STAGING_PASSWORD: "pw" })).not.toThrow();
});

test("a storage state that cannot be read, or is not one, stops the run", () => {
  const dir = scratchDir("storage-state");
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const stateOf = (path: string) => () => requireSiteAccess([targetWith({ storageState: path })], {});
  expect(stateOf(join(dir, "missing.json"))).toThrow(
    expect.objectContaining({
      exitCode: 2,
      message: `audits/shop.yaml: environments.staging.auth.storageState names ${dir}/missing.json, which does not exist.`,
    }),
  );
  expect(stateOf(file("broken.json", "{ cookies"))).toThrow(
    /which is not a Playwright storage state \(JSON with cookies and origins lists\)/,
  );
  expect(stateOf(file("other.json", '{ "cookies": {} }'))).toThrow(/which is not a Playwright storage state/);
  expect(stateOf(file("state.json", '{ "cookies": [], "origins": [] }'))).not.toThrow();
});
