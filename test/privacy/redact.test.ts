import { expect, test } from "@playwright/test";
import {
  isPlanLike,
  maskedValue,
  maskProperties,
  redactDeep,
  redactSecret,
  redactUrl,
  scrubText,
  secretsOf,
  shareableUrl,
} from "../../src/privacy/redact.js";
import { specWith } from "../support/artifacts.js";

test("a masked value says what was there, never the value", () => {
  expect(maskedValue("jane.doe@example.org")).toBe("«masked string, 20 chars»");
  expect(maskedValue({ street: "Main St" })).toBe("«masked object»");
  expect(maskedValue(["a", "b"])).toBe("«masked list of 2»");
  expect(maskedValue(null)).toBe("«masked null»");
});

test("only numbers, booleans and short lower-case tokens count as plan-like", () => {
  for (const value of ["pro", "business", "free_trial", "tier-2", 42, true])
    expect(isPlanLike(value), String(value)).toBe(true);
  for (const value of [
    "Jane",
    "jane.doe@example.org",
    "u_3f9a1c2b7d4e",
    "+33 6 12 34 56 78",
    "a".repeat(25),
    "user 12",
    "",
    "acct20240101",
    null,
    {},
  ]) {
    expect(isPlanLike(value), JSON.stringify(value)).toBe(false);
  }
});

test("properties keep their keys; values are shown only when allowed, nested ones never", () => {
  const shown = maskProperties(
    { plan: "pro", contact: "jane.doe@example.org", address: { city: "Lyon" } },
    (key) => key !== "contact",
  );
  expect(shown).toEqual({ plan: "pro", contact: "«masked string, 20 chars»", address: { city: "Lyon" } });
  expect(maskProperties({ address: { city: "Lyon" } }, (_key, value) => isPlanLike(value))).toEqual({
    address: "«masked object»",
  });
  expect(maskProperties("jane.doe@example.org", () => true)).toBe("«masked string, 20 chars»");
  expect(maskProperties(undefined, () => true)).toBeNull();
});

test("URLs lose their query values, fragment and credentials, but keep the project keys", () => {
  expect(
    redactUrl(
      "https://user:pw@shop.example.test/signup?email=jane%40example.org&key=prj_demo_staging#token",
      new Set(["prj_demo_staging"]),
    ),
  ).toBe("https://shop.example.test/signup?email=…&key=prj_demo_staging#…");
  expect(redactUrl("not a url")).toBe("«masked string, 9 chars»");
});

test("free text loses e-mail addresses and the given secrets", () => {
  expect(scrubText("TypeError for jane.doe@example.org with key test-api-key", ["test-api-key"])).toBe(
    "TypeError for «email» with key «redacted»",
  );
  expect(scrubText("GET /search?q=qa%2Bplan%40example.test failed", ["qa+plan@example.test"])).toBe(
    "GET /search?q=«redacted» failed",
  );
  expect(scrubText('track("signup") and identify("u_3f9a1c2b7d4e") were never delivered', [])).toBe(
    'track("signup") and identify(«user id») were never delivered',
  );
  // Free text errs on the side of hiding: addresses the detector would not report are hidden too.
  expect(scrubText("sent to jane@10.0.0.5, a@my_host.example.com and bob@example.c", [])).toBe(
    "sent to «email», «email» and «email»",
  );
  // Short secrets would blank out ordinary words.
  expect(scrubText("plan pro", ["pro"])).toBe("plan pro");
  // A secret inside another is hidden after it: Basic auth's pair, in base64, shows nothing of the password.
  const pair = Buffer.from("qa.preview-3e9d:stage-Pass-7741").toString("base64");
  expect(scrubText(`basic ${pair}`, ["qa.preview-3e9d", "stage-Pass-7741", "qa.preview-3e9d:stage-Pass-7741"])).toBe(
    "basic «redacted»==",
  );
});
test("a package's version in an SDK script's CDN URL is no e-mail address: the URL stays whole", () => {
  for (const url of [
    "https://cdn.jsdelivr.net/npm/posthog-js@1.449.2/dist/array.js",
    "https://unpkg.com/mixpanel-browser@2.83.0",
    "https://cdn.example.test/sdk@3.0.0-beta.1/sdk.js",
    "https://cdn.example.test/sdk@1.2/sdk.js",
  ]) {
    expect(scrubText(`The SDK script ${url} did not load`, [])).toBe(`The SDK script ${url} did not load`);
  }
  expect(scrubText("mail u@1.2.3.4 or qa@example.test", [])).toBe("mail «email» or «email»");
});

const KEY = "sk/live+9f8e";

test("every occurrence of the key, plain, URL-encoded or in base64, is redacted", () => {
  expect(redactSecret(`key ${KEY} and ${encodeURIComponent(KEY)} again ${KEY}`, KEY)).toBe(
    "key [redacted] and [redacted] again [redacted]",
  );
  // An Authorization header carries Basic auth's pair in base64 (padding kept), a URL in base64url.
  const pair = "preview-qa:stage-Pass-7741";
  expect(redactSecret(`Authorization: Basic ${Buffer.from(pair).toString("base64")}`, pair)).toBe(
    "Authorization: Basic [redacted]=",
  );
  expect(
    redactSecret(`?t=${Buffer.from(KEY).toString("base64url")}&u=${Buffer.from(KEY).toString("base64")}`, KEY),
  ).toBe("?t=[redacted]&u=[redacted]");
  // Inside longer encoded text, at any alignment, what encodes the secret's bytes alone is hidden.
  for (const prefix of ["", "u", "us", "use"]) {
    const encoded = Buffer.from(`${prefix}:stage-Pass-7741;`).toString("base64");
    const left = redactSecret(encoded, "stage-Pass-7741");
    expect(left, prefix).toContain("[redacted]");
    expect(Buffer.from(left.replace("[redacted]", ""), "base64").toString("latin1"), prefix).not.toMatch(
      /Pass|7741|stage/,
    );
  }
  expect(redactSecret("nothing to hide", KEY)).toBe("nothing to hide");
  expect(redactSecret("an empty key hides nothing", "")).toBe("an empty key hides nothing");
});

test("a deep copy is redacted in every string and key, other values kept", () => {
  const value = { url: `http://x/?k=${KEY}`, list: [KEY, 3, null, { [KEY]: true }], count: 2 };
  expect(redactDeep(value, KEY)).toEqual({
    url: "http://x/?k=[redacted]",
    list: ["[redacted]", 3, null, { "[redacted]": true }],
    count: 2,
  });
  expect(value.list[0]).toBe(KEY);
});

test("a URL in a message keeps only where it points", () => {
  expect(shareableUrl("https://user:pw@shop.example.test/signup?email=jane%40example.org#token")).toBe(
    "https://shop.example.test/signup",
  );
  expect(shareableUrl("x-project-key")).toBe("x-project-key");
});

test("the secrets of a run are the API key, when set, and every typed value", () => {
  const spec = specWith({
    api: { baseUrl: "http://127.0.0.1:47411", keyEnv: "SERVICE_API_KEY" },
    pages: [
      {
        id: "signup",
        path: "/signup",
        steps: [{ fill: { selector: "#email", value: "qa@example.test", canary: true } }, { click: "#submit" }],
      },
    ],
  });
  expect(secretsOf(spec, { SERVICE_API_KEY: "test-api-key" })).toEqual(["test-api-key", "qa@example.test"]);
  expect(secretsOf(spec, {})).toEqual(["qa@example.test"]);
  expect(secretsOf(specWith(), { SERVICE_API_KEY: "test-api-key" })).toEqual([]);
});

test("the secrets of a closed site are its variables' values, in every environment, and Basic auth's pair", () => {
  const spec = specWith({
    environments: {
      staging: {
        key: "prj_demo_staging",
        baseUrl: "http://127.0.0.1:47412",
        auth: {
          basic: { usernameEnv: "STAGING_USER", passwordEnv: "STAGING_PASSWORD" },
          headers: { "X-Preview-Token": "PREVIEW_TOKEN" },
        },
      },
      production: {
        key: "prj_demo_prod",
        baseUrl: "https://shop.example.test",
        auth: { cookies: [{ name: "preview", valueEnv: "PREVIEW_COOKIE" }] },
      },
    },
    defaultEnvironment: "staging",
    pages: [{ id: "signup", path: "/signup", steps: [{ fill: { selector: "#code", valueEnv: "INVITE_CODE" } }] }],
  });
  const env = {
    STAGING_USER: "preview-qa",
    STAGING_PASSWORD: "stage-Pass-7741",
    PREVIEW_TOKEN: "tok_9f3c",
    PREVIEW_COOKIE: "cookie-77",
    INVITE_CODE: "inv-42",
  };
  expect(secretsOf(spec, env).sort()).toEqual([
    "cookie-77",
    "inv-42",
    "preview-qa",
    "preview-qa:stage-Pass-7741",
    "stage-Pass-7741",
    "tok_9f3c",
  ]);
  // Unset variables hide nothing, and make no pair.
  expect(secretsOf(spec, { STAGING_USER: "preview-qa" })).toEqual(["preview-qa"]);
});
