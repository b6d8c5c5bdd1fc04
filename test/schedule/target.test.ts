import { expect, test } from "@playwright/test";
import { planTarget } from "../../src/schedule/target.js";
import { specWith } from "../support/artifacts.js";

const spec = specWith({
  environments: { staging: { key: "prj_demo_staging", baseUrl: "https://shop.example.test" } },
  pages: [
    { id: "home", path: "/" },
    {
      id: "signup",
      path: "/signup",
      steps: [
        { click: "#start" },
        { fill: { selector: "#email", value: "qa@example.test", canary: true } },
        { fill: { selector: "#name", value: "QA" } },
      ],
    },
  ],
  experiments: [
    {
      name: "Hero copy, short vs long",
      page: "home",
      selector: "#hero",
      goals: [],
      variations: [{ name: "Long/copy", js: "void 0" }],
    },
    {
      name: "Signup form, one step",
      page: "signup",
      selector: "#form",
      goals: [],
      variations: [{ name: "One step", js: "void 0" }],
    },
  ],
});
const fields = {
  specFile: "audits/shop.yaml",
  slug: "shop",
  spec,
  specSha256: "0".repeat(64),
  environment: "staging",
  viewports: ["desktop", "mobile"],
};

test("the plan lists each audited page, then each variation of the experiments on them, with its title, files and canaries", () => {
  const target = planTarget({ ...fields, baseUrl: "https://shop.example.test", pages: ["home", "signup"] });
  expect(target.units.map(({ inputs: _inputs, ...unit }) => unit)).toEqual([
    {
      id: "home",
      title: "shop › home",
      kind: "page",
      page: "home",
      variation: null,
      canaries: [],
      artifactFiles: { desktop: "shop.staging.home.desktop.json", mobile: "shop.staging.home.mobile.json" },
    },
    {
      id: "signup",
      title: "shop › signup",
      kind: "page",
      page: "signup",
      variation: null,
      canaries: [{ step: 1, fill: { selector: "#email", value: "qa@example.test", canary: true } }],
      artifactFiles: { desktop: "shop.staging.signup.desktop.json", mobile: "shop.staging.signup.mobile.json" },
    },
    {
      id: "home.e0v0",
      title: "shop › home · Hero copy, short vs long · Long/copy",
      kind: "variation",
      page: "home",
      variation: { experiment: "Hero copy, short vs long", name: "Long/copy", id: "e0v0" },
      canaries: [],
      artifactFiles: { desktop: "shop.staging.home.desktop.e0v0.json", mobile: "shop.staging.home.mobile.e0v0.json" },
    },
    {
      id: "signup.e1v0",
      title: "shop › signup · Signup form, one step · One step",
      kind: "variation",
      page: "signup",
      variation: { experiment: "Signup form, one step", name: "One step", id: "e1v0" },
      canaries: [],
      artifactFiles: {
        desktop: "shop.staging.signup.desktop.e1v0.json",
        mobile: "shop.staging.signup.mobile.e1v0.json",
      },
    },
  ]);
});

test("a page left out of the run takes its experiments' variations with it", () => {
  expect(
    planTarget({ ...fields, baseUrl: "https://shop.example.test", pages: ["signup"] }).units.map((unit) => unit.id),
  ).toEqual(["signup", "signup.e1v0"]);
});

test("the domain is the environment's, even when the pages are opened on a subdomain (--base-url)", () => {
  expect(planTarget({ ...fields, baseUrl: "https://www.shop.example.test", pages: ["home"] }).domain).toBe(
    "shop.example.test",
  );
});

test("with consent, each page gets a reject unit and a GPC unit after the previews; without it, none", () => {
  const withConsent = {
    ...fields,
    spec: { ...spec, consent: { accept: "auto" as const, reject: "auto" as const, gpc: true, timeoutMs: 5000 } },
  };
  const units = planTarget({ ...withConsent, baseUrl: "https://shop.example.test", pages: ["home", "signup"] }).units;
  expect(
    units
      .filter((unit) => unit.consent !== undefined)
      .map((unit) => [unit.id, unit.title, unit.consent, unit.artifactFiles.mobile]),
  ).toEqual([
    ["home.reject", "shop › home · consent refused", "reject", "shop.staging.home.mobile.reject.json"],
    ["signup.reject", "shop › signup · consent refused", "reject", "shop.staging.signup.mobile.reject.json"],
    ["home.gpc", "shop › home · Global Privacy Control", "gpc", "shop.staging.home.mobile.gpc.json"],
    ["signup.gpc", "shop › signup · Global Privacy Control", "gpc", "shop.staging.signup.mobile.gpc.json"],
  ]);
  expect(units.slice(0, 4).every((unit) => unit.consent === undefined)).toBe(true);
  expect(
    planTarget({ ...fields, baseUrl: "https://shop.example.test", pages: ["home", "signup"] }).units.some(
      (unit) => unit.consent !== undefined,
    ),
  ).toBe(false);
});

test("an experiment's control forced by query is previewed as a unit of its own, named control, before its variations", () => {
  const forced = { ...spec, experiments: [{ ...spec.experiments[0]!, control: { query: { "hero-copy": "0" } } }] };
  const units = planTarget({ ...fields, spec: forced, baseUrl: "https://shop.example.test", pages: ["home"] }).units;
  expect(units.map((unit) => [unit.id, unit.title, unit.variation])).toEqual([
    ["home", "shop › home", null],
    [
      "home.e0c",
      "shop › home · Hero copy, short vs long · control",
      { experiment: "Hero copy, short vs long", name: "control", id: "e0c", control: true },
    ],
    [
      "home.e0v0",
      "shop › home · Hero copy, short vs long · Long/copy",
      { experiment: "Hero copy, short vs long", name: "Long/copy", id: "e0v0" },
    ],
  ]);
});

test("each unit's input on each viewport holds what its gathering watches, applies, waits for and keeps, decided once by the plan", () => {
  const siteApplied = { name: "Short", query: { hero: "short" } };
  const experiments = [
    {
      ...spec.experiments[0]!,
      exposure: { event: "Experiment Viewed", properties: {}, variationProperty: "variation" },
      control: { query: { hero: "long" } },
      variations: [...spec.experiments[0]!.variations, siteApplied],
    },
    spec.experiments[1]!,
  ];
  const withConsent = {
    ...spec,
    experiments,
    consent: { accept: "auto" as const, reject: "auto" as const, gpc: false, timeoutMs: 5000 },
    // Until a check fails, the screenshot waits in the work folder.
    screenshots: "on-failure" as const,
  };
  const units = planTarget({
    ...fields,
    spec: withConsent,
    baseUrl: "https://shop.example.test",
    pages: ["home"],
  }).units;
  const hero = "Hero copy, short vs long";
  const views = "screenshots/shop/staging/views";
  /** What a unit's kind decides, on its desktop input. */
  const decided = ({ inputs }: (typeof units)[number]) => {
    const input = inputs.desktop!;
    return {
      selectorsOf: input.experiments.map((experiment) => experiment.name),
      viewed: input.viewedExperiments.map((experiment) => experiment.name),
      variation: input.variation,
      flicker: input.flicker,
      reloadForExposures: input.reloadForExposures,
      collect: input.traffic.collect,
      consent: input.consent?.unit,
      awaitsSdk: input.awaitsSdk,
      expected: input.expected,
      pictures: input.pictures,
    };
  };
  const previewed = {
    selectorsOf: [],
    viewed: [hero],
    reloadForExposures: [],
    collect: "intercept",
    consent: "page",
    awaitsSdk: true,
    expected: { track: [], identify: false },
  };
  expect(units.map((unit) => [unit.id, unit.kind, decided(unit)])).toEqual([
    [
      "home",
      "page",
      {
        selectorsOf: [hero],
        viewed: [hero],
        variation: null,
        flicker: null,
        reloadForExposures: ["Experiment Viewed"],
        collect: "send",
        consent: "page",
        awaitsSdk: true,
        // The exposure fired again after the reload is owed before it.
        expected: { track: ["Experiment Viewed"], identify: false },
        pictures: {
          screenshot: { name: "screenshots/shop/staging/home.desktop.png", folder: "work" },
          view: { name: `${views}/home.desktop.png`, folder: "output" },
          filmstrip: null,
        },
      },
    ],
    [
      "home.e0c",
      "variation",
      {
        ...previewed,
        variation: { experiment: hero, name: "control", query: { hero: "long" }, css: null, js: null, control: true },
        flicker: null,
        pictures: {
          screenshot: null,
          view: { name: `${views}/home.desktop.e0c.png`, folder: "output" },
          filmstrip: null,
        },
      },
    ],
    [
      "home.e0v0",
      "variation",
      {
        ...previewed,
        variation: { experiment: hero, name: "Long/copy", query: {}, css: null, js: "void 0" },
        flicker: null,
        pictures: {
          screenshot: null,
          view: { name: `${views}/home.desktop.e0v0.png`, folder: "output" },
          filmstrip: null,
        },
      },
    ],
    [
      "home.e0v1",
      "variation",
      {
        ...previewed,
        variation: { experiment: hero, name: "Short", query: { hero: "short" }, css: null, js: null },
        flicker: { selector: "#hero" },
        pictures: {
          screenshot: null,
          view: { name: `${views}/home.desktop.e0v1.png`, folder: "output" },
          filmstrip: { name: `${views}/home.desktop.e0v1.film`, folder: "output" },
        },
      },
    ],
    [
      "home.reject",
      "reject",
      {
        selectorsOf: [],
        viewed: [],
        variation: null,
        flicker: null,
        reloadForExposures: [],
        collect: "send",
        consent: "reject",
        // Nothing is seen nor walked on a page without a journey: the SDK is not waited for.
        awaitsSdk: false,
        expected: { track: [], identify: false },
        pictures: { screenshot: null, view: null, filmstrip: null },
      },
    ],
  ]);
  // Each viewport's input is that viewport's: its device, and its pictures' names.
  const mobile = units[0]!.inputs.mobile!;
  expect([mobile.viewport, mobile.mobile, mobile.pictures.screenshot?.name]).toEqual([
    "mobile",
    true,
    "screenshots/shop/staging/home.mobile.png",
  ]);
  expect(units[0]!.inputs.desktop!.mobile).toBe(false);
  // With screenshots on, the screenshot goes to the output at once.
  const on = planTarget({
    ...fields,
    spec: { ...withConsent, screenshots: "on" as const },
    baseUrl: "https://shop.example.test",
    pages: ["home"],
  }).units;
  expect(on[0]!.inputs.desktop!.pictures.screenshot?.folder).toBe("output");
  const off = planTarget({
    ...fields,
    spec: { ...withConsent, screenshots: "off" as const },
    baseUrl: "https://shop.example.test",
    pages: ["home"],
  }).units;
  expect(
    off
      .flatMap((unit) => Object.values(unit.inputs))
      .every(({ pictures }) => pictures.screenshot === null && pictures.view === null && pictures.filmstrip === null),
  ).toBe(true);
});

test("the page as it is is loaded again for the flags an experimentation SDK logs on each load; a preview, and an SDK that logs a visitor once, are not", () => {
  const onFlags = (preset: string) =>
    specWith({
      ...spec,
      environments: {
        staging: { key: "prj_demo_staging", experimentKey: "client-staging", baseUrl: "https://shop.example.test" },
      },
      experimentSdk: { preset },
      experiments: [
        {
          name: "Hero copy",
          page: "home",
          selector: "#hero",
          goals: [],
          flag: "hero_copy",
          variations: [{ name: "Long", js: "void 0", id: "long" }],
        },
        { name: "Signup form", page: "signup", selector: "#form", goals: [], flag: "signup_form" },
      ],
    });
  const reloads = (preset: string) =>
    planTarget({
      ...fields,
      spec: onFlags(preset),
      baseUrl: "https://shop.example.test",
      pages: ["home", "signup"],
    }).units.map((unit) => [unit.id, unit.inputs.desktop!.reloadForFlags]);
  expect(reloads("statsig")).toEqual([
    ["home", ["hero_copy"]],
    ["signup", ["signup_form"]],
    ["home.e0v0", []],
  ]);
  // Amplitude Experiment logs a visitor's exposure once: a reload would log none.
  expect(reloads("amplitude-experiment").map(([, flags]) => flags)).toEqual([[], [], []]);
});
