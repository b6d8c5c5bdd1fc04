import { expect, test } from "@playwright/test";
import type { LoginOutcome, PageArtifacts } from "../../../src/artifacts/types.js";
import { pageAccess } from "../../../src/checks/page/access.js";
import { eventsExpected } from "../../../src/checks/events/expected.js";
import { goalsMatch } from "../../../src/checks/goals/match.js";
import { runChecks } from "../../../src/checks/index.js";
import { pageLoad } from "../../../src/checks/page/load.js";
import { contextOf, pageWith, specWith } from "../../support/artifacts.js";

const SITE = "http://127.0.0.1:47412";

/** The default spec with `auth` on its staging environment. */
function specWithAuth(auth: Record<string, unknown>) {
  return specWith({ environments: { staging: { key: "prj_demo_staging", baseUrl: SITE, auth } } });
}

const LOGIN = {
  path: "/login",
  steps: [
    { fill: { selector: "#user", valueEnv: "STAGING_USER" } },
    { fill: { selector: "#password", valueEnv: "STAGING_PASSWORD" } },
    { click: "#sign-in" },
    { waitFor: "#account-menu" },
  ],
};
const withLogin = specWithAuth({ login: LOGIN });
const withBasic = specWithAuth({ basic: { usernameEnv: "STAGING_USER", passwordEnv: "STAGING_PASSWORD" } });

/** A login that got in: from /login to the account page. */
function loginWith(overrides: Partial<LoginOutcome> = {}): LoginOutcome {
  return {
    requestedUrl: `${SITE}/login`,
    documentStatus: 200,
    loadError: null,
    stepError: null,
    blockedHost: null,
    finalUrl: `${SITE}/account`,
    ...overrides,
  };
}

/** The signup page on `viewport`, with `overrides`. */
function signupOn(viewport: string, overrides: Partial<PageArtifacts> = {}): PageArtifacts {
  const url = `${SITE}/signup`;
  return pageWith({
    page: "signup",
    viewport,
    mobile: viewport === "mobile",
    requestedUrl: url,
    finalUrl: url,
    navigations: [url],
    ...overrides,
    access: { login: null, landedUrl: url, passwordField: false, authRefused: false, ...overrides.access },
  });
}

/** A page whose viewport's login did not get in: never opened. */
function unopened(viewport: string, login: LoginOutcome): PageArtifacts {
  return signupOn(viewport, {
    loadError: "not opened: the login did not get in (page.access says why)",
    documentStatus: null,
    finalUrl: null,
    navigations: [],
    access: { login, landedUrl: null, passwordField: false, authRefused: false },
  });
}

const byPlace = (findings: ReturnType<typeof pageAccess.evaluate>) =>
  findings.map((finding) => [finding.page, finding.viewport, finding.status]);

test.describe("page.access", () => {
  test("passes each page × viewport the site let in, and each viewport's login that got in", () => {
    const pages = ["desktop", "mobile"].map((viewport) =>
      signupOn(viewport, {
        access: { login: loginWith(), landedUrl: `${SITE}/signup`, passwordField: false, authRefused: false },
      }),
    );
    const findings = pageAccess.evaluate(contextOf(pages, withLogin));
    expect(byPlace(findings)).toEqual([
      [null, "desktop", "pass"],
      [null, "mobile", "pass"],
      ["signup", "desktop", "pass"],
      ["signup", "mobile", "pass"],
    ]);
    expect(findings[0]!.message).toContain("left /login for http://127.0.0.1:47412/account");
  });

  test("passes an open site without auth, with no login finding", () => {
    expect(byPlace(pageAccess.evaluate(contextOf([signupOn("desktop")])))).toEqual([["signup", "desktop", "pass"]]);
  });

  test("fails a 401 or 403 page, naming the variables to check when the spec has auth", () => {
    const findings = pageAccess.evaluate(
      contextOf(
        [
          signupOn("desktop", { loadError: "the server answered HTTP 401", documentStatus: 401 }),
          signupOn("mobile", { loadError: "the server answered HTTP 403", documentStatus: 403 }),
        ],
        withBasic,
      ),
    );
    expect(byPlace(findings)).toEqual([
      ["signup", "desktop", "fail"],
      ["signup", "mobile", "fail"],
    ]);
    expect(findings[0]!.message).toContain("answered HTTP 401");
    expect(findings[0]!.message).toContain("STAGING_USER and STAGING_PASSWORD");
    expect(findings[1]!.message).toContain("answered HTTP 403");
  });

  test("fails a 403 page of a spec without auth, saying to add it", () => {
    const [finding] = pageAccess.evaluate(
      contextOf([signupOn("desktop", { loadError: "the server answered HTTP 403", documentStatus: 403 })]),
    );
    expect(finding).toMatchObject({ status: "fail", evidence: { status: 403 } });
    expect(finding!.message).toContain("add environments.staging.auth");
  });

  test("fails a page the browser gave up on for its HTTP authentication", () => {
    const refused = signupOn("desktop", {
      loadError: "page.goto: net::ERR_INVALID_AUTH_CREDENTIALS at http://127.0.0.1:47412/signup",
      documentStatus: null,
      finalUrl: null,
      access: { login: null, landedUrl: null, passwordField: false, authRefused: true },
    });
    const [finding] = pageAccess.evaluate(contextOf([refused]));
    expect(finding?.status).toBe("fail");
    expect(finding!.message).toContain("Add environments.staging.auth.basic");
  });

  test("with a login, fails a page sent back to the login's path", () => {
    const sentBack = signupOn("desktop", {
      finalUrl: `${SITE}/login?next=%2Fsignup`,
      access: {
        login: loginWith(),
        landedUrl: `${SITE}/login?next=%2Fsignup`,
        passwordField: true,
        authRefused: false,
      },
    });
    const findings = pageAccess.evaluate(contextOf([sentBack], withLogin));
    expect(byPlace(findings)).toEqual([
      [null, "desktop", "pass"],
      ["signup", "desktop", "fail"],
    ]);
    expect(findings[1]!.message).toContain("sent back to the login page http://127.0.0.1:47412/login");
    // The query (where the site would send the visitor next) is no part of the message.
    expect(findings[1]!.message).not.toContain("next=");
  });

  test("with a login, fails a page whose journey ends on the login's path, and passes the login page audited as a page", () => {
    const endsThere = signupOn("desktop", {
      finalUrl: `${SITE}/login/`,
      access: { login: loginWith(), landedUrl: `${SITE}/signup`, passwordField: false, authRefused: false },
    });
    const loginPage = signupOn("mobile", {
      page: "login",
      requestedUrl: `${SITE}/login`,
      finalUrl: `${SITE}/login`,
      access: { login: loginWith(), landedUrl: `${SITE}/login`, passwordField: false, authRefused: false },
    });
    expect(byPlace(pageAccess.evaluate(contextOf([endsThere, loginPage], withLogin))).slice(2)).toEqual([
      ["signup", "desktop", "fail"],
      ["login", "mobile", "pass"],
    ]);
  });

  test("with a login through a sign-in host, fails a page that lands on it", () => {
    const spec = specWithAuth({ login: { ...LOGIN, hosts: ["SSO.example.test"] } });
    const atSso = signupOn("desktop", {
      access: {
        login: loginWith(),
        landedUrl: "https://sso.example.test/authorize?client=shop",
        passwordField: true,
        authRefused: false,
      },
    });
    const [, finding] = pageAccess.evaluate(contextOf([atSso], spec));
    expect(finding).toMatchObject({ status: "fail", evidence: { landedUrl: "https://sso.example.test/authorize" } });
    expect(finding!.message).toContain("sign-in host");
  });

  for (const [name, outcome, says] of [
    [
      "a step failed",
      loginWith({
        stepError: { step: 3, message: 'waitFor "#account-menu" failed: Timeout 15000ms exceeded.' },
        finalUrl: `${SITE}/login?error=1`,
      }),
      "step 4 failed",
    ],
    [
      "it ended where it started",
      loginWith({ finalUrl: `${SITE}/login?error=1` }),
      "it ended on /login, where it started",
    ],
    [
      "its page did not load",
      loginWith({ loadError: "net::ERR_CONNECTION_REFUSED", documentStatus: null, finalUrl: null }),
      "could not be loaded (net::ERR_CONNECTION_REFUSED)",
    ],
    ["its page answered 401", loginWith({ documentStatus: 401, finalUrl: `${SITE}/login` }), "answered HTTP 401"],
    [
      "it was sent to a host it does not list",
      loginWith({ blockedHost: "evil.example", loadError: "net::ERR_BLOCKED_BY_CLIENT" }),
      "Add evil.example to auth.login.hosts",
    ],
  ] as const) {
    test(`fails the viewport's login when ${name}, once, and skips its pages saying why`, () => {
      const pages = [unopened("mobile", outcome), { ...unopened("mobile", outcome), page: "home" }];
      const findings = pageAccess.evaluate(contextOf(pages, withLogin));
      expect(byPlace(findings)).toEqual([
        [null, "mobile", "fail"],
        ["signup", "mobile", "skip"],
        ["home", "mobile", "skip"],
      ]);
      expect(findings[0]!.message).toContain("The login did not get in on mobile");
      expect(findings[0]!.message).toContain(says);
      expect(findings[1]!.message).toContain("the login did not get in on mobile");
    });
  }

  test("names the login's variables when it did not take the credentials", () => {
    const [finding] = pageAccess.evaluate(
      contextOf([unopened("desktop", loginWith({ finalUrl: `${SITE}/login?error=1` }))], withLogin),
    );
    expect(finding!.message).toContain(
      "Check that STAGING_USER and STAGING_PASSWORD hold valid credentials for staging",
    );
  });

  test("reports a viewport's failed login when another shard's got in", () => {
    const failed = unopened("desktop", loginWith({ finalUrl: `${SITE}/login?error=1` }));
    const fine = signupOn("desktop", {
      page: "home",
      access: { login: loginWith(), landedUrl: `${SITE}/signup`, passwordField: false, authRefused: false },
    });
    expect(byPlace(pageAccess.evaluate(contextOf([fine, failed], withLogin)))[0]).toEqual([null, "desktop", "fail"]);
  });

  test("without a login, warns on a page redirected to another path with a password field", () => {
    const walled = signupOn("desktop", {
      finalUrl: `${SITE}/sign-in`,
      access: { login: null, landedUrl: `${SITE}/sign-in`, passwordField: true, authRefused: false },
    });
    const [open] = pageAccess.evaluate(contextOf([walled]));
    expect(open?.status).toBe("warn");
    expect(open!.message).toContain("looks like a login wall");
    expect(open!.message).toContain("add environments.staging.auth ");
    const [basicOnly] = pageAccess.evaluate(contextOf([walled], withBasic));
    expect(basicOnly!.message).toContain("add auth.login to environments.staging.auth");
  });

  test("passes a page redirected to a path without a password field, or one with a field on its own path", () => {
    const redirected = signupOn("desktop", {
      access: { login: null, landedUrl: `${SITE}/signup/welcome`, passwordField: false, authRefused: false },
    });
    const ownField = signupOn("mobile", {
      access: { login: null, landedUrl: `${SITE}/signup/`, passwordField: true, authRefused: false },
    });
    expect(pageAccess.evaluate(contextOf([redirected, ownField])).map((finding) => finding.status)).toEqual([
      "pass",
      "pass",
    ]);
  });

  test("skips a page that did not load for another reason: page.load says why", () => {
    const [finding] = pageAccess.evaluate(
      contextOf([
        signupOn("desktop", {
          loadError: "the server answered HTTP 500",
          documentStatus: 500,
          finalUrl: null,
          access: { login: null, landedUrl: null, passwordField: false, authRefused: false },
        }),
      ]),
    );
    expect(finding).toMatchObject({
      status: "skip",
      message: "Not judged: the page did not load (page.load says why).",
    });
  });
});

test.describe("a page the site kept the audit out of", () => {
  test("is page.access's alone: page.load and the page's other checks skip, saying so", () => {
    const context = contextOf(
      [signupOn("desktop", { loadError: "the server answered HTTP 401", documentStatus: 401, finalUrl: null })],
      withBasic,
    );
    const findings = runChecks(context).filter((finding) => finding.page === "signup");
    expect(findings.find((finding) => finding.check === "page.access")?.status).toBe("fail");
    const others = findings.filter((finding) => finding.check !== "page.access");
    expect(others.length).toBeGreaterThan(5);
    for (const finding of others)
      expect([finding.check, finding.status, finding.message]).toEqual([
        finding.check,
        "skip",
        expect.stringContaining("kept the audit out"),
      ]);
  });

  test("with a failed login, skips the goals of that viewport instead of failing them", () => {
    const context = contextOf([unopened("mobile", loginWith({ finalUrl: `${SITE}/login` }))], withLogin);
    expect(goalsMatch.evaluate(context)[0]).toMatchObject({
      status: "skip",
      viewport: "mobile",
      message: expect.stringContaining("kept the audit out of signup"),
    });
    expect(eventsExpected.evaluate(context)[0]?.status).toBe("skip");
    expect(pageLoad.evaluate(context)[0]?.status).toBe("skip");
  });

  test("sent back to the login page is not judged as that page", () => {
    const sentBack = signupOn("desktop", {
      finalUrl: `${SITE}/login`,
      access: { login: loginWith(), landedUrl: `${SITE}/login`, passwordField: true, authRefused: false },
    });
    expect(eventsExpected.evaluate(contextOf([sentBack], withLogin))[0]).toMatchObject({
      status: "skip",
      message: expect.stringContaining("kept the audit out"),
    });
  });

  test("behind a login wall warning is still judged as what it showed", () => {
    const walled = signupOn("desktop", {
      access: { login: null, landedUrl: `${SITE}/sign-in`, passwordField: true, authRefused: false },
    });
    expect(eventsExpected.evaluate(contextOf([walled]))[0]?.status).toBe("fail");
  });
});
