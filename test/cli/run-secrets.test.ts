import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { saveLogin } from "../../src/gather/login-state.js";
import type { AuditTarget } from "../../src/schedule/plan.js";
import { gatheringSecrets, runSecretLists, shortSecretWarnings } from "../../src/cli/run-secrets.js";
import { specWith, plannedTarget } from "../support/artifacts.js";
import { scratchDir } from "../support/scratch.js";

/** A closed site's target: Basic auth, a login, a journey that types an invite code and a literal value, and a storage state in `stateFile`. */
function closedTarget(stateFile: string): AuditTarget {
  const auth = {
    basic: { usernameEnv: "STAGING_USER", passwordEnv: "STAGING_PASSWORD" },
    storageState: stateFile,
    login: { path: "/login", steps: [{ fill: { selector: "#pin", valueEnv: "LOGIN_PIN" } }, { click: "#go" }] },
  };
  const journey = [
    { fill: { selector: "#email", value: "qa@example.test" } },
    { fill: { selector: "#code", valueEnv: "INVITE_CODE" } },
  ];
  const spec = specWith({
    environments: { staging: { key: "prj_demo_staging", baseUrl: "http://127.0.0.1:47412", auth } },
    defaultEnvironment: "staging",
    pages: [{ id: "signup", path: "/signup", steps: journey }],
  });
  return plannedTarget(spec, {
    specFile: "audits/closed.yaml",
    slug: "closed",
    pages: ["signup"],
    viewports: ["desktop"],
  });
}

const ENV = { STAGING_USER: "qa-user", STAGING_PASSWORD: "pa55-word-9", LOGIN_PIN: "417", INVITE_CODE: "invite-77aa" };

test("a run's secrets are its variables' values, its journeys' typed values and what its logins and storage states yielded; the saved artifacts hide all but the typed literals", async () => {
  const dir = scratchDir("run-secrets");
  const stateFile = join(dir, "signed-in.json");
  writeFileSync(stateFile, JSON.stringify({ cookies: [{ name: "sid", value: "sess_from_the_file_01" }], origins: [] }));
  const target = closedTarget(stateFile);
  const workDir = scratchDir("run-secrets-work");
  const context = {
    storageState: async () => ({
      cookies: [{ name: "members_session", value: "sess_from_the_login_2", domain: "127.0.0.1", path: "/" }],
      origins: [{ origin: "http://127.0.0.1:47412", localStorage: [{ name: "key", value: "prj_demo_staging" }] }],
    }),
  };
  const outcome = {
    requestedUrl: "http://127.0.0.1:47412/login",
    documentStatus: 200,
    loadError: null,
    stepError: null,
    blockedHost: null,
    finalUrl: "http://127.0.0.1:47412/account",
  };
  await saveLogin(workDir, { slug: "closed", environment: "staging", viewport: "desktop" }, outcome, context as never);

  const lists = runSecretLists([target], ENV, workDir);
  expect(lists.secrets.sort()).toEqual(
    [
      "417",
      "invite-77aa",
      "pa55-word-9",
      "qa-user",
      "qa-user:pa55-word-9",
      "qa@example.test",
      "sess_from_the_file_01",
      "sess_from_the_login_2",
    ].sort(),
  );
  expect(lists.credentials.sort()).toEqual(
    [
      "417",
      "invite-77aa",
      "pa55-word-9",
      "qa-user",
      "qa-user:pa55-word-9",
      "sess_from_the_file_01",
      "sess_from_the_login_2",
    ].sort(),
  );
  // Without the work folder (a replay, a merge), the storage-state file's alone.
  expect(runSecretLists([target], ENV, null).secrets).not.toContain("sess_from_the_login_2");
  expect(runSecretLists([target], ENV, null).secrets).toContain("sess_from_the_file_01");
  // A storage-state file that is gone, or no JSON object, yields nothing.
  writeFileSync(stateFile, "{ not json");
  expect(runSecretLists([target], ENV, null).secrets.filter((secret) => secret.startsWith("sess_"))).toEqual([]);
  expect(
    runSecretLists([closedTarget(join(dir, "missing.json"))], ENV, null).secrets.filter((secret) =>
      secret.startsWith("sess_"),
    ),
  ).toEqual([]);
});

test("while a run gathers, its progress lines hide a login's session from the line after the login ended", async () => {
  const target = closedTarget(join(scratchDir("run-secrets"), "missing.json"));
  const workDir = scratchDir("run-secrets-work");
  const secrets = gatheringSecrets([target], ENV, workDir);
  const before = secrets();
  expect(before).not.toContain("sess_from_the_login_3");
  // The same list while no login has ended since: the states are not read for every line.
  expect(secrets()).toBe(before);
  const context = {
    storageState: async () => ({
      cookies: [{ name: "members_session", value: "sess_from_the_login_3", domain: "127.0.0.1", path: "/" }],
      origins: [],
    }),
  };
  const outcome = {
    requestedUrl: "http://127.0.0.1:47412/login",
    documentStatus: 200,
    loadError: null,
    stepError: null,
    blockedHost: null,
    finalUrl: "http://127.0.0.1:47412/account",
  };
  await saveLogin(workDir, { slug: "closed", environment: "staging", viewport: "desktop" }, outcome, context as never);
  expect(secrets()).toContain("sess_from_the_login_3");
});

test("a secret too short to hide is named in a warning, with where the spec names it, and never shown", () => {
  const warnings = shortSecretWarnings([closedTarget("/nowhere.json")], ENV);
  expect(warnings).toEqual([
    "setup-audit: warning: LOGIN_PIN holds fewer than 4 characters, too few to hide from the outputs without hiding ordinary text: they may show it (audits/closed.yaml: environments.staging.auth.login.steps[0].fill.valueEnv). Use a longer secret.",
  ]);
  expect(warnings.join("")).not.toContain("417");
  expect(shortSecretWarnings([closedTarget("/nowhere.json")], { ...ENV, LOGIN_PIN: "4172" })).toEqual([]);
});
