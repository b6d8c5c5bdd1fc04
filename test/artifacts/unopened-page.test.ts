import { expect, test } from "@playwright/test";
import { isPageAsItIs, isRefusal } from "../../src/artifacts/unit-kind.js";
import { unopenedPage } from "../../src/artifacts/unopened-page.js";
import { specWith } from "../support/artifacts.js";

const target = (consent?: Record<string, unknown>) => ({
  specFile: "audits/shop.yaml",
  environment: "staging",
  baseUrl: "http://127.0.0.1:47412",
  spec: specWith(consent ? { consent } : {}),
});
const why = { loadError: "the page's audit crashed or timed out (see the output above)", login: null };
const desktop = { viewport: "desktop", mobile: false };

test("an unopened unit names its page's URL and why it was not opened, and has seen nothing", () => {
  const page = unopenedPage(target(), { id: "signup", kind: "page", page: "signup", variation: null }, desktop, why);
  expect(page).toMatchObject({
    page: "signup",
    viewport: "desktop",
    requestedUrl: "http://127.0.0.1:47412/signup",
    loadError: why.loadError,
    calls: [],
    collect: [],
  });
  expect(page.consent).toBeUndefined();
});

test("with consent, an unopened refusal or GPC unit stays that unit, answered as the spec says, and the page's stays the page as it is", () => {
  const withConsent = target({ accept: "auto", reject: [{ click: "#refuse" }], gpc: true, timeoutMs: 5000 });
  const reject = unopenedPage(
    withConsent,
    { id: "signup.reject", kind: "reject", page: "signup", variation: null, consent: "reject" },
    desktop,
    why,
  );
  const gpc = unopenedPage(
    withConsent,
    { id: "signup.gpc", kind: "gpc", page: "signup", variation: null, consent: "gpc" },
    desktop,
    why,
  );
  const page = unopenedPage(withConsent, { id: "signup", kind: "page", page: "signup", variation: null }, desktop, why);
  expect([
    reject.consent?.unit,
    reject.consent?.method,
    gpc.consent?.unit,
    gpc.consent?.method,
    page.consent?.unit,
    page.consent?.method,
  ]).toEqual(["reject", "steps", "gpc", "none", "page", "auto"]);
  expect([isRefusal(reject), isRefusal(gpc), isPageAsItIs(page), isPageAsItIs(reject)]).toEqual([
    true,
    true,
    true,
    false,
  ]);
});
