import { expect, test } from "@playwright/test";
import { reconcileDeliveries } from "../../src/artifacts/delivery.js";
import { pageAttachments } from "../../src/report/page-attachments.js";
import { callWith, collectOf, pageWith } from "../support/artifacts.js";

/** The spec's environment key and required attributes, and the run's secrets: the API key and a typed value. */
const redaction = {
  keys: ["prj_demo_staging"],
  requiredAttributes: ["plan", "account_type"],
  secrets: ["test-api-key", "qa@example.test"],
};

function attachmentsOf(page = pageWith()) {
  return pageAttachments(reconcileDeliveries([page], null)[0]!, redaction);
}

test("a page gets its captured calls and network log as JSON; page errors only when there are some", () => {
  expect(attachmentsOf().map((attachment) => [attachment.name, attachment.contentType])).toEqual([
    ["captured calls", "application/json"],
    ["SDK and collect network log", "application/json"],
  ]);
  const withErrors = attachmentsOf(
    pageWith({ errors: [{ kind: "exception", message: "Cannot read 'track' for qa@example.test" }] }),
  );
  expect(withErrors.map((attachment) => attachment.name)).toEqual([
    "captured calls",
    "SDK and collect network log",
    "page errors",
  ]);
  expect(JSON.parse(withErrors[2]!.body)).toEqual([
    { kind: "exception", message: "Cannot read 'track' for «redacted»" },
  ]);
});

test("a failed request's error names its URL with the query values hidden, the spec's key kept", () => {
  const failed = {
    kind: "console" as const,
    message: "Failed to load resource: the server responded with a status of 404 (Not Found)",
    url: "http://127.0.0.1:47412/img/a.png?key=prj_demo_staging&token=t0ken-v4lue",
  };
  const [, , errors] = attachmentsOf(pageWith({ errors: [failed] }));
  expect(JSON.parse(errors!.body)).toEqual([
    { kind: "console", message: failed.message, url: "http://127.0.0.1:47412/img/a.png?key=prj_demo_staging&token=…" },
  ]);
});

test("identify shows no user id, and only required attributes with plan-like values", () => {
  const identify = callWith({
    kind: "identify",
    name: "u_3f9a1c2b7d4e",
    properties: { plan: "pro", account_type: "Jane Doe", contact: "jane.doe@example.org", seats: 3 },
  });
  const track = callWith({
    name: "signup_success",
    properties: { plan: "pro", email_sha256: "ab".repeat(32) },
    documentUrl: "http://127.0.0.1:47412/signup?email=qa%40example.test",
  });
  const [calls] = attachmentsOf(pageWith({ calls: [identify, track], collect: [collectOf([track])] }));
  const body = calls!.body;
  expect(JSON.parse(body)).toEqual([
    {
      kind: "identify",
      name: null,
      state: "direct",
      atMs: 500,
      delivery: "dropped",
      properties: {
        plan: "pro",
        account_type: "«masked string, 8 chars»",
        contact: "«masked string, 20 chars»",
        seats: "«masked number»",
      },
      documentUrl: "http://127.0.0.1:47412/signup",
    },
    {
      kind: "track",
      name: "signup_success",
      state: "direct",
      atMs: 500,
      delivery: "accepted",
      properties: { plan: "pro", email_sha256: "«masked string, 64 chars»" },
      documentUrl: "http://127.0.0.1:47412/signup?email=…",
    },
  ]);
  for (const personal of ["u_3f9a1c2b7d4e", "jane", "Jane", "qa@example.test", "qa%40example.test"])
    expect(body).not.toContain(personal);
});

test("the network log lists requests with what they carried, never their payloads", () => {
  const identify = callWith({ kind: "identify", name: "u_3f9a1c2b7d4e", properties: { plan: "pro" } });
  const track = callWith({ name: "signup_success" });
  const request = {
    ...collectOf([track, identify], 400),
    url: "http://127.0.0.1:47411/v1/collect?key=prj_demo_staging&uid=u_3f9a1c2b7d4e",
  };
  request.events[1]!.strings.push("u_3f9a1c2b7d4e");
  const [, log] = attachmentsOf(pageWith({ calls: [track, identify], collect: [request] }));
  expect(JSON.parse(log!.body)).toEqual({
    sdkScripts: [{ url: "http://127.0.0.1:47411/sdk/v1/sdk.js", status: 200, failure: null, atMs: 20 }],
    collect: [
      {
        method: "POST",
        url: "http://127.0.0.1:47411/v1/collect?key=prj_demo_staging&uid=…",
        atMs: 600,
        status: 400,
        failure: null,
        events: 2,
        carried: ['track("signup_success")', "identify(«user id»)"],
        decodeError: null,
      },
    ],
  });
  expect(log!.body).not.toContain("u_3f9a1c2b7d4e");
});

test("a page view is named as one, with its name, in the calls and in what a request carried", () => {
  const pageView = callWith({ kind: "page", method: "page", name: "Pricing" });
  const [calls, log] = attachmentsOf(pageWith({ calls: [pageView], collect: [collectOf([pageView])] }));
  expect(JSON.parse(calls!.body)[0]).toMatchObject({ kind: "page", name: "Pricing" });
  expect(JSON.parse(log!.body).collect[0].carried).toEqual(['page("Pricing")']);
});

test("with consent, a page lists what happened before consent: its calls, its requests (collect ones and trackers marked, and how many were left out) and the SDK's storage, by name", () => {
  const early = callWith({ name: "page_view", atMs: 150 });
  const late = callWith({ atMs: 1500 });
  const page = pageWith({
    calls: [early, late],
    collect: [
      { ...collectOf([early]), atMs: 210 },
      { ...collectOf([late]), atMs: 1600 },
    ],
    consent: {
      unit: "page",
      method: "auto",
      timeoutMs: 5000,
      bannerAtMs: 400,
      cmp: "Klaro",
      answeredAtMs: 900,
      answerError: null,
      webdriver: false,
      storedAtAnswer: [{ where: "cookie", name: "ajs_anonymous_id" }],
      storedAtEnd: [],
      writes: [
        { where: "cookie", name: "ajs_anonymous_id", op: "set", atMs: 120 },
        { where: "localStorage", name: "ajs_user_traits", op: "set", atMs: 1510 },
      ],
      requestsBefore: [
        { url: "http://127.0.0.1:47411/v1/collect", method: "POST", resourceType: "fetch", atMs: 210 },
        {
          url: "https://www.facebook.com/tr?id=1&ev=PageView",
          method: "GET",
          resourceType: "image",
          atMs: 230,
          tracker: { name: "Facebook", category: "social" },
        },
      ],
      requestsLeftOut: 12,
    },
  });
  const attachments = attachmentsOf(page);
  expect(attachments.map((attachment) => attachment.name)).toEqual([
    "captured calls",
    "SDK and collect network log",
    "before consent",
  ]);
  expect(JSON.parse(attachments[2]!.body)).toEqual({
    banner: { consentManager: "Klaro", shownAtMs: 400, answeredWith: "the rules (auto)" },
    consent: "accepted at 900 ms",
    calls: [{ call: 'track("page_view")', atMs: 150, delivery: "accepted", deliveredAtMs: 210 }],
    requests: [
      {
        method: "POST",
        url: "http://127.0.0.1:47411/v1/collect",
        type: "fetch",
        atMs: 210,
        collect: true,
        tracker: null,
      },
      {
        method: "GET",
        url: expect.stringMatching(/^https:\/\/www\.facebook\.com\/tr\?/),
        type: "image",
        atMs: 230,
        collect: false,
        tracker: "Facebook (social)",
      },
    ],
    requestsLeftOut: 12,
    storageWritten: [{ name: "ajs_anonymous_id", where: "cookie", op: "set", atMs: 120 }],
    storedWhenAnswered: [{ name: "ajs_anonymous_id", where: "cookie" }],
  });
});

test("a property value shown whole because it looks plan-like is hidden when it holds a secret, in each of its forms", () => {
  const secret = "preview-abc1";
  const track = callWith({
    name: "coupon_applied",
    properties: { plan: "pro", code: secret, encoded: Buffer.from(secret).toString("base64") },
  });
  const page = pageWith({ calls: [track], collect: [collectOf([track])] });
  const [calls] = pageAttachments(reconcileDeliveries([page], null)[0]!, { ...redaction, secrets: [secret] });
  expect(JSON.parse(calls!.body)[0].properties).toEqual({
    plan: "pro",
    code: "«redacted»",
    encoded: "«masked string, 16 chars»",
  });
  expect(calls!.body).not.toContain(secret);
});
