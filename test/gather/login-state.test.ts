import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "@playwright/test";
import type { LoginOutcome } from "../../src/artifacts/types.js";
import { readLogin, saveLogin } from "../../src/gather/login-state.js";
import { test } from "../support/browser.js";
import { scratchDir } from "../support/scratch.js";

const KEY = { slug: "members", environment: "staging", viewport: "desktop" };
const LOGIN_URL = "http://127.0.0.1:47415/members/login";
const gotIn: LoginOutcome = {
  requestedUrl: LOGIN_URL,
  documentStatus: 200,
  loadError: null,
  stepError: null,
  blockedHost: null,
  finalUrl: "http://127.0.0.1:47415/members/account",
};

test("a login that got in hands its storage state to its viewport's pages, in files only their owner reads", async ({
  browser,
}) => {
  const workDir = scratchDir("setup-audit-login");
  const context = await browser.newContext();
  await context.addCookies([{ name: "members_session", value: "sess_test", domain: "127.0.0.1", path: "/" }]);
  await saveLogin(workDir, KEY, gotIn, context);
  await context.close();

  const record = readLogin(workDir, KEY, LOGIN_URL);
  expect(record.outcome).toEqual(gotIn);
  expect(JSON.parse(readFileSync(record.storageState!, "utf8")).cookies).toMatchObject([
    { name: "members_session", value: "sess_test" },
  ]);
  expect(statSync(join(workDir, "logins")).mode & 0o777).toBe(0o700);
  expect(statSync(record.storageState!).mode & 0o777).toBe(0o600);
  // Another viewport's login is its own.
  expect(readLogin(workDir, { ...KEY, viewport: "mobile" }, LOGIN_URL).storageState).toBeNull();
});

test("a login that did not get in leaves no state; one that left no record did not get in either", async () => {
  const workDir = scratchDir("setup-audit-login");
  const stayed = { ...gotIn, finalUrl: `${LOGIN_URL}?error=1` };
  await saveLogin(workDir, KEY, stayed, null);
  expect(readLogin(workDir, KEY, LOGIN_URL)).toEqual({ outcome: stayed, storageState: null });
  expect(readLogin(workDir, { ...KEY, viewport: "mobile" }, LOGIN_URL)).toEqual({
    outcome: {
      requestedUrl: LOGIN_URL,
      documentStatus: null,
      loadError: "the login's audit crashed or timed out (see the output above)",
      stepError: null,
      blockedHost: null,
      finalUrl: null,
    },
    storageState: null,
  });
});
