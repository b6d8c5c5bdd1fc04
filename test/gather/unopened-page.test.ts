import { expect, test } from "@playwright/test";
import { isPageAsItIs, isRefusal } from "../../src/artifacts/unit-kind.js";
import { unopenedPage } from "../../src/gather/unopened-page.js";
import { specWith, plannedTarget } from "../support/artifacts.js";

/** The plan of the signup page on desktop: its units, each with its input. */
const unitsOf = (spec: ReturnType<typeof specWith>) =>
  plannedTarget(spec, { pages: ["signup"], viewports: ["desktop"] }).units;
const why = { loadError: "the page's audit crashed or timed out (see the output above)", login: null };
const signup = { id: "signup", path: "/signup" };

test("an unopened unit names its page's URL and why it was not opened, and has seen nothing", () => {
  const [unit] = unitsOf(specWith({ pages: [signup] }));
  const page = unopenedPage(unit!.inputs.desktop!, why);
  expect(page).toMatchObject({
    unit: { id: "signup", kind: "page" },
    page: "signup",
    viewport: "desktop",
    mobile: false,
    browser: null,
    requestedUrl: "http://127.0.0.1:47412/signup",
    finalUrl: null,
    loadError: why.loadError,
    access: { login: null, landedUrl: null, passwordField: false, authRefused: false },
    calls: [],
    collect: [],
    screenshot: null,
    variation: null,
  });
  expect(page.consent).toBeUndefined();
});

test("an unopened preview names its variation, with its preview link, and no error of its code", () => {
  const spec = specWith({
    pages: [signup],
    experiments: [
      {
        name: "Form",
        page: "signup",
        selector: "#form",
        goals: [],
        variations: [{ name: "Short", query: { form: "short" } }],
      },
    ],
  });
  const preview = unitsOf(spec).find((unit) => unit.kind === "variation")!;
  const page = unopenedPage(preview.inputs.desktop!, why);
  expect([page.unit, page.requestedUrl, page.variation]).toEqual([
    { id: "signup.e0v0", kind: "variation" },
    "http://127.0.0.1:47412/signup?form=short",
    { experiment: "Form", name: "Short", errors: [] },
  ]);
});

test("with consent, an unopened refusal or GPC unit stays that unit, answered as the spec says, and the page's stays the page as it is", () => {
  const consent = { accept: "auto", reject: [{ click: "#refuse" }], gpc: true, timeoutMs: 5000 };
  const units = unitsOf(specWith({ pages: [signup], consent }));
  const [page, reject, gpc] = ["page", "reject", "gpc"].map((kind) =>
    unopenedPage(units.find((unit) => unit.kind === kind)!.inputs.desktop!, why),
  );
  expect([
    reject!.consent?.unit,
    reject!.consent?.method,
    gpc!.consent?.unit,
    gpc!.consent?.method,
    page!.consent?.unit,
    page!.consent?.method,
  ]).toEqual(["reject", "steps", "gpc", "none", "page", "auto"]);
  expect([isRefusal(reject!), isRefusal(gpc!), isPageAsItIs(page!), isPageAsItIs(reject!)]).toEqual([
    true,
    true,
    true,
    false,
  ]);
});
