import { expect, test } from "@playwright/test";
import { planTarget } from "../../src/plan/target.js";
import { specWith } from "../support/artifacts.js";

const spec = specWith({
  environments: { staging: { key: "prj_demo_staging", baseUrl: "https://shop.example.test" } },
  pages: [
    { id: "home", path: "/" },
    { id: "signup", path: "/signup", steps: [{ click: "#start" }, { fill: { selector: "#email", value: "qa@example.test", canary: true } }, { fill: { selector: "#name", value: "QA" } }] },
  ],
  experiments: [
    { name: "Hero copy, short vs long", page: "home", selector: "#hero", goals: [], variations: [{ name: "Long/copy", js: "void 0" }] },
    { name: "Signup form, one step", page: "signup", selector: "#form", goals: [], variations: [{ name: "One step", js: "void 0" }] },
  ],
});
const fields = { specFile: "audits/shop.yaml", slug: "shop", spec, specSha256: "0".repeat(64), environment: "staging", viewports: ["desktop", "mobile"] };

test("the plan lists each audited page, then each variation of the experiments on them, with its title, files and canaries", () => {
  const target = planTarget({ ...fields, baseUrl: "https://shop.example.test", pages: ["home", "signup"] });
  expect(target.units).toEqual([
    { id: "home", title: "shop › home", page: "home", variation: null, canaries: [], artifactFiles: { desktop: "shop.staging.home.desktop.json", mobile: "shop.staging.home.mobile.json" } },
    {
      id: "signup",
      title: "shop › signup",
      page: "signup",
      variation: null,
      canaries: [{ step: 1, fill: { selector: "#email", value: "qa@example.test", canary: true } }],
      artifactFiles: { desktop: "shop.staging.signup.desktop.json", mobile: "shop.staging.signup.mobile.json" },
    },
    {
      id: "home.e0v0",
      title: "shop › home · Hero copy, short vs long · Long/copy",
      page: "home",
      variation: { experiment: "Hero copy, short vs long", name: "Long/copy", id: "e0v0" },
      canaries: [],
      artifactFiles: { desktop: "shop.staging.home.desktop.e0v0.json", mobile: "shop.staging.home.mobile.e0v0.json" },
    },
    {
      id: "signup.e1v0",
      title: "shop › signup · Signup form, one step · One step",
      page: "signup",
      variation: { experiment: "Signup form, one step", name: "One step", id: "e1v0" },
      canaries: [],
      artifactFiles: { desktop: "shop.staging.signup.desktop.e1v0.json", mobile: "shop.staging.signup.mobile.e1v0.json" },
    },
  ]);
});

test("a page left out of the run takes its experiments' variations with it", () => {
  expect(planTarget({ ...fields, baseUrl: "https://shop.example.test", pages: ["signup"] }).units.map((unit) => unit.id)).toEqual(["signup", "signup.e1v0"]);
});

test("the domain is the environment's, even when the pages are opened on a subdomain (--base-url)", () => {
  expect(planTarget({ ...fields, baseUrl: "https://www.shop.example.test", pages: ["home"] }).domain).toBe("shop.example.test");
});

test("with consent, each page gets a reject unit and a GPC unit after the previews; without it, none", () => {
  const withConsent = { ...fields, spec: { ...spec, consent: { accept: "auto" as const, reject: "auto" as const, gpc: true, timeoutMs: 5000 } } };
  const units = planTarget({ ...withConsent, baseUrl: "https://shop.example.test", pages: ["home", "signup"] }).units;
  expect(units.filter((unit) => unit.consent !== undefined).map((unit) => [unit.id, unit.title, unit.consent, unit.artifactFiles.mobile])).toEqual([
    ["home.reject", "shop › home · consent refused", "reject", "shop.staging.home.mobile.reject.json"],
    ["signup.reject", "shop › signup · consent refused", "reject", "shop.staging.signup.mobile.reject.json"],
    ["home.gpc", "shop › home · Global Privacy Control", "gpc", "shop.staging.home.mobile.gpc.json"],
    ["signup.gpc", "shop › signup · Global Privacy Control", "gpc", "shop.staging.signup.mobile.gpc.json"],
  ]);
  expect(units.slice(0, 4).every((unit) => unit.consent === undefined)).toBe(true);
  expect(planTarget({ ...fields, baseUrl: "https://shop.example.test", pages: ["home", "signup"] }).units.some((unit) => unit.consent !== undefined)).toBe(false);
});

test("an experiment's control forced by query is previewed as a unit of its own, named control, before its variations", () => {
  const forced = { ...spec, experiments: [{ ...spec.experiments[0]!, control: { query: { "hero-copy": "0" } } }] };
  const units = planTarget({ ...fields, spec: forced, baseUrl: "https://shop.example.test", pages: ["home"] }).units;
  expect(units.map((unit) => [unit.id, unit.title, unit.variation])).toEqual([
    ["home", "shop › home", null],
    ["home.e0c", "shop › home · Hero copy, short vs long · control", { experiment: "Hero copy, short vs long", name: "control", id: "e0c", control: true }],
    ["home.e0v0", "shop › home · Hero copy, short vs long · Long/copy", { experiment: "Hero copy, short vs long", name: "Long/copy", id: "e0v0" }],
  ]);
});
