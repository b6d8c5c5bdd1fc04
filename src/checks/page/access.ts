import type { LoginOutcome, PageArtifacts } from "../../artifacts/types.js";
import { shareableUrl } from "../../privacy/redact.js";
import type { Judgement } from "../../findings/finding.js";
import { secretVariables } from "../../privacy/secrets.js";
import { keptOut, loginFailure, samePath, type KeptOut, type LoginFailure } from "../../artifacts/site-entry.js";
import type { AuthSpec } from "../../audit-spec/schema.js";
import { auditedEnvironment, defineCheck, finding, type CheckContext, OPENED_PAGE } from "../check.js";

/** page.access: the site let the audit in, on every page × viewport and through its login. */
export const pageAccess = defineCheck({
  id: "page.access",
  scope: "run",
  title: "The site lets the audit in",
  failureTitle: "The site kept the audit out",
  family: "Pages and viewports",
  severity: "blocker",
  requires: [...OPENED_PAGE, "requestedUrl"],
  failsWhen:
    "per page × viewport: the page answered 401 or 403, or the browser gave up on the site's HTTP authentication " +
    "(it had no credentials for it), or, with `auth.login`, the page landed or ended on the login's path or on a " +
    "sign-in host (**fail**; that page × viewport's other checks skip, saying why); per viewport (`page` null), with " +
    "`auth.login`: the login page did not load, the login was sent to a host `auth.login.hosts` does not list, a step " +
    "failed, or it ended where it started, on the login's path (**fail**; every page of that viewport skips, saying " +
    "why); without `auth.login`, a page redirected to another path that shows a password field looks like a login " +
    "wall (**warn**). See [Closed sites](closed-sites.md)",
  why:
    "Staging sites are closed (HTTP Basic auth, a preview token, a login form). An audit kept out sees a 401 or the " +
    "login page instead of the site: its SDK, events and goals would be judged on a page no visitor converts on. " +
    "So being let in is judged first, and a page the audit was kept out of is judged by nothing else.",
  evaluate(context): Judgement[] {
    const auth = auditedEnvironment(context).auth;
    return [...loginFindings(context, auth), ...context.pages.map((page) => judgePage(context, page, auth))];
  },
});

/** The variables that hold the secrets of the audited environment's `auth` (its login's, or its other ways in'), for a message: `STAGING_USER and STAGING_PASSWORD`. */
function variablesOf(context: CheckContext, part: "login" | "credentials"): string {
  const prefix = `environments.${context.environment}.auth.`;
  const names = secretVariables(context.spec, context.environment)
    .filter(
      (variable) =>
        variable.where.startsWith(prefix) && variable.where.startsWith(`${prefix}login.`) === (part === "login"),
    )
    .map((variable) => variable.name);
  const unique = [...new Set(names)];
  return unique.length <= 1 ? (unique[0] ?? "") : `${unique.slice(0, -1).join(", ")} and ${unique.at(-1)}`;
}

/** One finding per viewport with `auth.login`: whether its login got in. */
function loginFindings(context: CheckContext, auth: AuthSpec | undefined): Judgement[] {
  if (auth?.login === undefined) return [];
  const viewports = [...new Set(context.pages.map((page) => page.viewport))];
  return viewports.map((viewport) => {
    const logins = context.pages
      .filter((page) => page.viewport === viewport)
      .flatMap((page) => page.access.login ?? []);
    // Shards each walk the login: one that did not get in is the one to report.
    const outcome = logins.find((login) => loginFailure(login) !== null) ?? logins[0];
    const scope = { viewport };
    if (outcome === undefined)
      return finding(
        context,
        "skip",
        `Not judged on ${viewport}: no page of it was gathered, so neither was its login.`,
        scope,
      );
    const failure = loginFailure(outcome);
    const evidence = {
      loginUrl: shareableUrl(outcome.requestedUrl),
      status: outcome.documentStatus,
      endedAt: outcome.finalUrl === null ? null : shareableUrl(outcome.finalUrl),
    };
    if (failure === null) {
      return finding(
        context,
        "pass",
        `The login got in on ${viewport}: it left ${new URL(outcome.requestedUrl).pathname} for ${shareableUrl(outcome.finalUrl!)}, and every page of ${viewport} started signed in.`,
        scope,
        evidence,
      );
    }
    return finding(
      context,
      "fail",
      `The login did not get in on ${viewport}: ${loginFailureText(context, outcome, failure)} Every page of ${viewport} is skipped.`,
      scope,
      { ...evidence, failure: failure.kind },
    );
  });
}

/** Why the login did not get in, and what to do, in words. */
function loginFailureText(context: CheckContext, outcome: LoginOutcome, failure: LoginFailure): string {
  const variables = variablesOf(context, "login");
  const credentials =
    variables === ""
      ? "the credentials the steps type"
      : `that ${variables} hold valid credentials for ${context.environment}`;
  const otherWayIn =
    "Check auth.login.path, and that the site's first door (auth.basic, auth.headers) lets the audit in when it has one.";
  switch (failure.kind) {
    case "load":
      return `its page ${shareableUrl(outcome.requestedUrl)} could not be loaded (${failure.error}). ${otherWayIn}`;
    case "status":
      return `its page ${shareableUrl(outcome.requestedUrl)} answered HTTP ${failure.status}. ${otherWayIn}`;
    case "blocked":
      return `it was sent to ${failure.host}, which auth.login.hosts does not list, and was stopped there: secrets are typed only into the site and the hosts it lists. Add ${failure.host} to auth.login.hosts if it is the site's single sign-on provider.`;
    case "step":
      return `step ${failure.step + 1} failed (${failure.message}). Check the steps' selectors against the login form, and ${credentials}.`;
    case "stayed":
      return `it ended on ${new URL(failure.url).pathname}, where it started: the site did not take the credentials, or the last step does not wait for the signed-in page. Check ${credentials}, and end the steps with a waitFor of what only a signed-in page shows.`;
  }
}

/** One page × viewport: let in, kept out (and why), or a login wall the spec has no way through. */
function judgePage(context: CheckContext, page: PageArtifacts, auth: AuthSpec | undefined): Judgement {
  const scope = { page: page.page, viewport: page.viewport };
  const url = shareableUrl(page.requestedUrl);
  const evidence = {
    url,
    status: page.documentStatus,
    landedUrl: page.access.landedUrl === null ? null : shareableUrl(page.access.landedUrl),
  };
  const kept = keptOut(page, auth);
  if (kept?.kind === "login")
    return finding(
      context,
      "skip",
      `Not judged: the login did not get in on ${page.viewport} (its page.access finding says why), so the page was not opened.`,
      scope,
    );
  if (kept !== null)
    return finding(
      context,
      "fail",
      `On ${page.viewport}, the site kept the audit out of ${url}: ${keptOutText(context, kept, auth)}`,
      scope,
      evidence,
    );
  if (page.loadError !== null)
    return finding(context, "skip", "Not judged: the page did not load (page.load says why).", scope);
  const landed = page.access.landedUrl;
  if (
    auth?.login === undefined &&
    page.access.passwordField &&
    landed !== null &&
    !samePath(landed, page.requestedUrl)
  ) {
    const add =
      auth === undefined
        ? `add environments.${context.environment}.auth`
        : `add auth.login to environments.${context.environment}.auth`;
    return finding(
      context,
      "warn",
      `On ${page.viewport}, ${url} was redirected to ${shareableUrl(landed)}, which shows a password field: it looks like a login wall, and the other checks judge that page. If the site is closed, ${add} (README: Closed sites).`,
      scope,
      evidence,
    );
  }
  return finding(
    context,
    "pass",
    `The site let the audit into ${url} on ${page.viewport} (HTTP ${page.documentStatus ?? "?"}).`,
    scope,
    evidence,
  );
}

/** How the site kept the audit out of a page, and what to do, in words. */
function keptOutText(
  context: CheckContext,
  kept: Exclude<KeptOut, { kind: "login" }>,
  auth: AuthSpec | undefined,
): string {
  const at = `environments.${context.environment}.auth`;
  switch (kept.kind) {
    case "status": {
      if (auth === undefined)
        return `it answered HTTP ${kept.status}. If the site is closed, add ${at} with its way in (basic, headers, cookies, storageState or login; README: Closed sites).`;
      const variables = variablesOf(context, "credentials");
      return `it answered HTTP ${kept.status}. Check that the secrets of ${at}${variables === "" ? "" : ` (${variables})`} are current for ${context.environment}, and that the page is open to them.`;
    }
    case "refused":
      return auth?.basic === undefined
        ? `it asks for HTTP authentication, and the audit had no credentials for it (the browser gave up). Add ${at}.basic with the variables that hold the user name and password.`
        : `it asks for HTTP authentication, and auth.basic's credentials go to the base URL's origin alone (the browser gave up): keep the page on that origin, or audit the other origin as an environment of its own.`;
    case "login-page":
      return `it was sent back to the login page ${shareableUrl(kept.url)}: the login's session did not hold there. Check that the login ends signed in (its last step waits for what only a signed-in page shows) and that the page is open to that user.`;
    case "sign-in-host":
      return `it was sent to the sign-in host ${shareableUrl(kept.url)}: the login's session did not hold there. Check that the login ends signed in, and that the page is open to that user.`;
  }
}
