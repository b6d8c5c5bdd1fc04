import { expect, test } from "@playwright/test";
import type { ConsentArtifacts, PageArtifacts } from "../../src/artifacts/types.js";
import { reconcileDeliveries } from "../../src/artifacts/delivery.js";
import { notConsentedReason, type AuditContext } from "../../src/checks/check.js";
import { consentBanner } from "../../src/checks/consent/banner.js";
import { consentBefore } from "../../src/checks/consent/before.js";
import { consentReject } from "../../src/checks/consent/reject.js";
import { runChecks } from "../../src/checks/index.js";
import { sdkPresent } from "../../src/checks/sdk/present.js";
import { callWith, collectOf, contextOf, pageWith, specWith } from "../support/artifacts.js";

/** A spec with the consent section and Segment's storage names, on one page. */
const spec = specWith({
  sdk: { preset: "segment", script: "**/sdk/v1/sdk.js", collect: "**/v1/collect" },
  consent: { reject: "auto", gpc: true },
  pages: [{ id: "signup", path: "/signup" }],
});

/** A consent unit that went well: the banner at 400 ms, answered at 900 ms, nothing stored. */
function consentWith(overrides: Partial<ConsentArtifacts> = {}): ConsentArtifacts {
  return {
    unit: "page",
    method: "auto",
    timeoutMs: 5000,
    bannerAtMs: 400,
    cmp: "cookieconsent3",
    answeredAtMs: 900,
    answerError: null,
    webdriver: false,
    storedAtAnswer: [{ where: "cookie", name: "session" }],
    storedAtEnd: [
      { where: "cookie", name: "cc_cookie" },
      { where: "cookie", name: "ajs_anonymous_id" },
    ],
    writes: [{ where: "cookie", name: "ajs_anonymous_id", op: "set", atMs: 1100 }],
    requestsBefore: [],
    requestsLeftOut: 0,
    ...overrides,
  };
}

/** The signup page on a viewport, consent given at 900 ms and tracked after it. */
function signup(consent: Partial<ConsentArtifacts> = {}, overrides: Partial<PageArtifacts> = {}): PageArtifacts {
  const call = callWith({ atMs: 1500 });
  return pageWith({
    page: "signup",
    calls: [call],
    collect: [{ ...collectOf([call]), atMs: 1600 }],
    consent: consentWith(consent),
    ...overrides,
  });
}

/** A refusal unit: nothing made, sent or stored after the answer. */
function refusal(
  unit: "reject" | "gpc",
  consent: Partial<ConsentArtifacts> = {},
  overrides: Partial<PageArtifacts> = {},
): PageArtifacts {
  const answered =
    unit === "reject"
      ? { answeredAtMs: 900, bannerAtMs: 400 }
      : { answeredAtMs: null, bannerAtMs: null, method: "none" as const, cmp: null };
  return pageWith({
    page: "signup",
    calls: [],
    collect: [],
    consent: consentWith({
      unit,
      ...answered,
      storedAtEnd: [{ where: "cookie", name: "cc_cookie" }],
      writes: [],
      ...consent,
    }),
    ...overrides,
  });
}

/** The context of a run with these page units and refusal units, deliveries reconciled. */
function consentContext(pages: PageArtifacts[], refusals: PageArtifacts[] = [], withSpec = spec): AuditContext {
  return { ...contextOf(pages, withSpec), refusals: reconcileDeliveries(refusals, null) };
}

test.describe("consent.banner", () => {
  test("passes when the banner showed and was accepted, and refused on the reject unit", () => {
    const [finding] = consentBanner.evaluate(consentContext([signup()], [refusal("reject")]));
    expect(finding).toMatchObject({ check: "consent.banner", status: "pass", page: "signup", viewport: "desktop" });
    expect(finding?.message).toBe(
      "The banner of cookieconsent3 showed at 400 ms on /signup (desktop) and was accepted at 900 ms. The banner of cookieconsent3 showed at 400 ms on /signup (desktop, reject unit) and was refused at 900 ms.",
    );
  });

  test("fails when no banner showed, saying why: no consent manager known, one that showed none, an automated browser, a selector never visible", () => {
    const message = (consent: Partial<ConsentArtifacts>) =>
      consentBanner.evaluate(consentContext([signup({ bannerAtMs: null, answeredAtMs: null, ...consent })]))[0]!;
    const unknown = message({ cmp: null });
    expect(unknown.status).toBe("fail");
    expect(unknown.message).toBe(
      "No consent banner showed within 5000 ms after /signup (desktop) loaded: no consent manager the rules know is on the page; if the page asks for consent with a banner of its own, give consent.accept the selector of its button, or steps.",
    );
    expect(message({ cmp: "Klaro" }).message).toContain(
      "the rules recognise Klaro on the page, but it showed no banner",
    );
    expect(message({ webdriver: true }).message).toContain("navigator.webdriver true");
    expect(message({ method: "steps", cmp: null }).message).toContain(
      "the element of consent.accept's first step never became visible",
    );
  });

  test("fails when the banner could not be accepted, or refused on the reject unit", () => {
    const [accept] = consentBanner.evaluate(
      consentContext([
        signup({
          answerError: "the rules for cookieconsent3 could not accept: one of their steps found nothing to act on",
        }),
      ]),
    );
    expect(accept?.status).toBe("fail");
    expect(accept?.message).toContain(
      "showed at 400 ms on /signup (desktop) but could not be accepted: the rules for cookieconsent3 could not accept",
    );
    expect(accept?.message).toContain("Give consent.accept the selector of the banner's accept button");
    const [reject] = consentBanner.evaluate(
      consentContext([signup()], [refusal("reject", { answerError: "step 1 of consent.reject: click failed" })]),
    );
    expect(reject?.status).toBe("fail");
    expect(reject?.message).toBe(
      "The banner of cookieconsent3 showed at 400 ms on /signup (desktop, reject unit) but could not be refused: step 1 of consent.reject: click failed. Give consent.reject the selector of the banner's refuse button, or steps, if the rules no longer fit the banner.",
    );
  });

  test("skips a page that did not load, and gives no finding without the consent section", () => {
    const [finding] = consentBanner.evaluate(
      consentContext([signup({}, { loadError: "the server answered HTTP 500" })]),
    );
    expect(finding).toMatchObject({ status: "skip", message: "Not judged: the page did not load." });
    expect(consentBanner.evaluate(contextOf([pageWith()]))).toEqual([]);
  });
});

test.describe("consent.before", () => {
  test("passes when nothing was sent, stored or called before consent", () => {
    const [finding] = consentBefore.evaluate(consentContext([signup()]));
    expect(finding).toMatchObject({ check: "consent.before", status: "pass", page: "signup", viewport: "desktop" });
    expect(finding?.message).toBe(
      "Nothing was sent or stored before consent was given on /signup (desktop): no collect request, no request to a known tracker, none of the SDK's storage and no call in the 900 ms before the answer.",
    );
  });

  test("fails on requests to known trackers before consent, whatever the SDK, naming each tracker and its category once", () => {
    const facebook = { name: "Facebook", category: "social" };
    const page = signup({
      requestsBefore: [
        { url: "http://127.0.0.1:47411/app.js", method: "GET", resourceType: "script", atMs: 100 },
        {
          url: "https://connect.facebook.net/en_US/fbevents.js",
          method: "GET",
          resourceType: "script",
          atMs: 300,
          tracker: facebook,
        },
        {
          url: "https://www.facebook.com/tr?id=1234&ev=PageView",
          method: "GET",
          resourceType: "image",
          atMs: 420,
          tracker: facebook,
        },
        {
          url: "https://region1.google-analytics.com/g/collect?v=2&tid=G-1",
          method: "POST",
          resourceType: "ping",
          atMs: 610,
          tracker: { name: "Google Analytics", category: "analytics" },
        },
      ],
      requestsLeftOut: 3,
    });
    const [finding] = consentBefore.evaluate(consentContext([page]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      "Before consent was given (at 900 ms), /signup (desktop) sent 3 request(s) to 2 known tracker(s) (Facebook (social): 2 requests, the first GET https://connect.facebook.net/en_US/fbevents.js at 300 ms, Google Analytics (analytics): POST https://region1.google-analytics.com/g/collect at 610 ms). Load these trackers' tags only once the visitor consents, through the consent manager.",
    );
    expect(finding?.evidence).toMatchObject({
      trackersBefore: [
        {
          tracker: "Facebook",
          category: "social",
          requests: 2,
          first: { url: "https://connect.facebook.net/en_US/fbevents.js", atMs: 300 },
        },
        {
          tracker: "Google Analytics",
          category: "analytics",
          requests: 1,
          first: { url: "https://region1.google-analytics.com/g/collect", atMs: 610 },
        },
      ],
      requestsLeftOut: 3,
    });
  });

  test("a tracker reached only after consent, or a request of no known tracker, passes; a tracker's collect request is judged once, as a collect request", () => {
    const after = signup({
      requestsBefore: [
        {
          url: "https://www.facebook.com/tr?id=1234",
          method: "GET",
          resourceType: "image",
          atMs: 950,
          tracker: { name: "Facebook", category: "social" },
        },
      ],
    });
    expect(consentBefore.evaluate(consentContext([after]))[0]?.status).toBe("pass");
    const early = callWith({ atMs: 150 });
    const collect = { ...collectOf([early]), url: "https://api.segment.io/v1/t", atMs: 210 };
    const sdk = signup(
      {
        requestsBefore: [
          {
            url: collect.url,
            method: "POST",
            resourceType: "fetch",
            atMs: 210,
            tracker: { name: "Segment", category: "analytics" },
          },
        ],
      },
      { calls: [early], collect: [collect] },
    );
    const [finding] = consentBefore.evaluate(consentContext([sdk]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("sent 1 collect request(s) (POST https://api.segment.io/v1/t at 210 ms)");
    expect(finding?.message).not.toContain("known tracker");
  });

  test("names the SDK's fix and the trackers' when both tracked before consent", () => {
    const page = signup({
      storedAtAnswer: [{ where: "cookie", name: "ajs_anonymous_id" }],
      requestsBefore: [
        {
          url: "https://bat.bing.com/action/0?ti=1",
          method: "GET",
          resourceType: "image",
          atMs: 500,
          tracker: { name: "Bing Ads", category: "ad" },
        },
      ],
    });
    const [finding] = consentBefore.evaluate(consentContext([page]));
    expect(finding?.message).toMatch(
      /stored the SDK's ajs_anonymous_id \(cookie\); sent 1 request\(s\) to 1 known tracker\(s\) \(Bing Ads \(ad\): GET https:\/\/bat\.bing\.com\/action\/0 at 500 ms\)\. Load the SDK only once .* Load this tracker's tag only once the visitor consents, through the consent manager\.$/,
    );
  });

  test("fails on a collect request and the SDK's cookie before consent, naming what, where and when", () => {
    const early = callWith({ kind: "track", name: "page_view", atMs: 150 });
    const page = signup(
      {
        storedAtAnswer: [{ where: "cookie", name: "ajs_anonymous_id" }],
        writes: [{ where: "cookie", name: "ajs_anonymous_id", op: "set", atMs: 120 }],
      },
      { calls: [early], collect: [{ ...collectOf([early]), atMs: 210 }] },
    );
    const [finding] = consentBefore.evaluate(consentContext([page]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      'Before consent was given (at 900 ms), /signup (desktop) sent 1 collect request(s) (POST http://127.0.0.1:47411/v1/collect at 210 ms); stored the SDK\'s ajs_anonymous_id (cookie, written at 120 ms); made and delivered track("page_view") at 150 ms. Load the SDK only once the visitor consents (gate its tag with the consent manager) and keep its storage off until then.',
    );
  });

  test("fails on a cookie written before consent and deleted since, and not on a probe removed at once", () => {
    const deleted = signup({
      writes: [
        { where: "cookie", name: "ajs_anonymous_id", op: "set", atMs: 108 },
        { where: "cookie", name: "ajs_anonymous_id", op: "remove", atMs: 410 },
      ],
    });
    expect(consentBefore.evaluate(consentContext([deleted]))[0]?.status).toBe("fail");
    const probe = signup({
      writes: [
        { where: "localStorage", name: "ajs_probe", op: "set", atMs: 108 },
        { where: "localStorage", name: "ajs_probe", op: "remove", atMs: 109 },
      ],
    });
    expect(consentBefore.evaluate(consentContext([probe]))[0]?.status).toBe("pass");
  });

  test("a cookie the page's script removed in another task is no probe, however soon; one removed in the same task is", () => {
    const cookie = (setTask: number, removeTask: number) =>
      signup({
        writes: [
          { where: "cookie", name: "ajs_anonymous_id", op: "set", atMs: 108, task: setTask },
          { where: "cookie", name: "ajs_anonymous_id", op: "remove", atMs: 112, task: removeTask },
        ],
      });
    const [removedLater] = consentBefore.evaluate(consentContext([cookie(3, 4)]));
    expect(removedLater?.status).toBe("fail");
    expect(removedLater?.message).toContain("stored the SDK's ajs_anonymous_id (cookie, written at 108 ms)");
    expect(consentBefore.evaluate(consentContext([cookie(3, 3)]))[0]?.status).toBe("pass");
  });

  test("fails on a cookie deleted before consent that the log never saw written: it was there all the same", () => {
    const [finding] = consentBefore.evaluate(
      consentContext([signup({ writes: [{ where: "cookie", name: "ajs_anonymous_id", op: "remove", atMs: 296 }] })]),
    );
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("stored the SDK's ajs_anonymous_id (cookie, deleted at 296 ms)");
    const refused = refusal("reject", {
      writes: [{ where: "cookie", name: "ajs_anonymous_id", op: "remove", atMs: 950 }],
    });
    expect(consentReject.evaluate(consentContext([signup()], [refused]))[0]?.status).toBe("pass");
  });

  test("warns on a call made before consent, held and delivered only after it", () => {
    const held = callWith({ name: "signup_started", atMs: 300, state: "queued" });
    const [finding] = consentBefore.evaluate(
      consentContext([signup({}, { calls: [held], collect: [{ ...collectOf([held]), atMs: 1200 }] })]),
    );
    expect(finding?.status).toBe("warn");
    expect(finding?.message).toContain('made track("signup_started") at 300 ms, held and delivered only after consent');
  });

  test("a call made through the experimentation SDK is timed by its own request: sent before consent fails, held until it warns", () => {
    const viaSdk = callWith({ method: "trackEvent", name: "cta_clicked", atMs: 300, sdk: "experiment" });
    const sentAt = (atMs: number) =>
      signup(
        {},
        {
          calls: [],
          collect: [],
          experimentSdk: {
            inits: [],
            evaluations: [],
            exposures: [],
            calls: [viaSdk],
            tracked: [{ name: "cta_clicked", visitor: "v-1", atMs, request: { atMs, status: 204, failure: null } }],
          },
        },
      );
    const [early] = consentBefore.evaluate(consentContext([sentAt(450)]));
    expect(early?.status).toBe("fail");
    expect(early?.message).toContain('made and delivered trackEvent("cta_clicked") at 300 ms');
    expect(early?.evidence).toMatchObject({ callsBefore: [{ atMs: 300, deliveredAtMs: 450 }] });
    const [held] = consentBefore.evaluate(consentContext([sentAt(1200)]));
    expect(held?.status).toBe("warn");
    expect(held?.message).toContain('made trackEvent("cta_clicked") at 300 ms, held and delivered only after consent');
  });

  test("skips when consent was never given, and so do the page's other checks", () => {
    const context = consentContext([signup({ bannerAtMs: null, answeredAtMs: null })]);
    expect(consentBefore.evaluate(context)[0]).toMatchObject({
      status: "skip",
      message: "Not judged: consent was never given on this page (consent.banner says why).",
    });
    expect(sdkPresent.evaluate(context)[0]).toMatchObject({
      status: "skip",
      message: "Not judged: consent was never given on this page (consent.banner says why).",
    });
  });
});

test.describe("consent.reject", () => {
  test("passes on the reject and GPC units when nothing is made, sent or stored", () => {
    const findings = consentReject.evaluate(consentContext([signup()], [refusal("reject"), refusal("gpc")]));
    expect(findings.map((finding) => [finding.status, finding.evidence.unit])).toEqual([
      ["pass", "reject"],
      ["pass", "gpc"],
    ]);
    expect(findings[0]?.message).toBe(
      "After consent was refused at 900 ms (reject unit), /signup (desktop) made no SDK call, sent no collect request and stored none of the SDK's storage.",
    );
  });

  test("fails on a collect request after refusing, naming the request (without its query) and when", () => {
    // A query may carry the event's data (a visitor's e-mail address, say): only origin and path are named.
    const unit = refusal(
      "reject",
      {},
      {
        collect: [
          { ...collectOf([]), url: "http://127.0.0.1:47417/api/segment/v1/t?data=jane%40example.test", atMs: 950 },
        ],
      },
    );
    const [finding] = consentReject.evaluate(consentContext([signup()], [unit]));
    expect(finding).toMatchObject({
      status: "fail",
      page: "signup",
      viewport: "desktop",
      evidence: { unit: "reject", collect: [{ url: "http://127.0.0.1:47417/api/segment/v1/t", atMs: 950 }] },
    });
    expect(finding?.message).toBe(
      "After consent was refused at 900 ms (reject unit), /signup (desktop) sent 1 collect request(s) (POST http://127.0.0.1:47417/api/segment/v1/t at 950 ms). Load the SDK, and let the page call it, only when the visitor has consented; on a refusal send nothing, and clear the SDK's cookies.",
    );
  });

  test("warns when a GPC visitor is tracked: calls, requests and storage from the start", () => {
    const call = callWith({ atMs: 1500 });
    const unit = refusal(
      "gpc",
      { storedAtEnd: [{ where: "localStorage", name: "ajs_user_traits" }] },
      { calls: [call], collect: [{ ...collectOf([call]), atMs: 1600 }] },
    );
    const [finding] = consentReject.evaluate(consentContext([signup()], [unit]));
    expect(finding).toMatchObject({ status: "warn", evidence: { unit: "gpc" } });
    expect(finding?.message).toContain(
      'With Global Privacy Control on (GPC unit: Sec-GPC: 1, nothing answered), /signup (desktop) made 1 SDK call(s) (track("signup_success") at 1500 ms)',
    );
    expect(finding?.message).toContain("stored the SDK's ajs_user_traits (localStorage)");
    expect(finding?.message).toContain("Treat navigator.globalPrivacyControl");
  });

  test("skips the refusal units when the page's banner could not be answered, and a reject unit that could not refuse", () => {
    const noBanner = consentReject.evaluate(
      consentContext([signup({ bannerAtMs: null, answeredAtMs: null })], [refusal("reject"), refusal("gpc")]),
    );
    expect(noBanner.map((finding) => finding.status)).toEqual(["skip", "skip"]);
    expect(noBanner[1]?.message).toBe(
      "Not judged (GPC unit): the banner could not be answered on the page itself (consent.banner says why).",
    );
    const [unrefused] = consentReject.evaluate(consentContext([signup()], [refusal("reject", { answerError: "no" })]));
    expect(unrefused).toMatchObject({
      status: "skip",
      message: "Not judged (reject unit): the banner could not be refused (consent.banner says why).",
    });
  });
});

test("without the consent section, the registry gives no consent finding", () => {
  const findings = runChecks(contextOf([pageWith()]));
  expect(findings.filter((finding) => finding.check.startsWith("consent."))).toEqual([]);
});

test("a banner never answered: what follows consent skips on that page × viewport, saying why, and only the banner's check fails", () => {
  const goalSpec = specWith({ ...spec, goals: [{ name: "Signed up", event: "signup_success" }] });
  const unanswered = (viewport: string) =>
    signup(
      { answeredAtMs: null, bannerAtMs: null, storedAtEnd: [], writes: [] },
      { viewport, mobile: viewport === "mobile", calls: [], collect: [] },
    );
  const findings = runChecks(consentContext([unanswered("desktop"), unanswered("mobile")], [], goalSpec));
  const status = (check: string) =>
    findings.filter((finding) => finding.check === check).map((finding) => finding.status);
  expect(status("consent.banner")).toEqual(["fail", "fail"]);
  for (const check of ["consent.before", "sdk.present", "events.expected", "goals.match"])
    expect(status(check), check).toEqual(["skip", "skip"]);
  expect(findings.find((finding) => finding.check === "goals.match")!.message).toBe(
    "Not judged on desktop: consent was never given on signup (consent.banner says why), where `signup_success` may fire.",
  );
  expect(findings.filter((finding) => finding.status === "fail").map((finding) => finding.check)).toEqual([
    "consent.banner",
    "consent.banner",
  ]);
});

test("a variation's preview whose own banner was never answered says so itself, since consent.banner judges the page as it is", () => {
  const preview = signup(
    { answeredAtMs: null, bannerAtMs: null },
    { variation: { experiment: "Signup copy", name: "Short", errors: [] } },
  );
  expect(notConsentedReason(preview)).toBe(
    "Not judged: consent was never given on this preview (its banner was not found within 5000 ms).",
  );
  expect(
    notConsentedReason(
      signup(
        { answerError: "the banner stayed after the click" },
        { variation: { experiment: "Signup copy", name: "Short", errors: [] } },
      ),
    ),
  ).toBe("Not judged: consent was never given on this preview (the banner stayed after the click).");
  expect(notConsentedReason(signup())).toBeNull();
});
