import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { CliError } from "../../src/runner/errors.js";
import { judgeGathered } from "../../src/cli/judge.js";
import { readSavedRun, replayedTargets, saveArtifacts } from "../../src/cli/saved-artifacts.js";
import { restoreScreens } from "../../src/cli/screens.js";
import { buildTarget } from "../../src/cli/targets.js";
import type { PageArtifacts } from "../../src/artifacts/types.js";
import type { TargetResult } from "../../src/results/run-result.js";
import type { Finding } from "../../src/findings/finding.js";
import type { AuditSpec } from "../../src/audit-spec/schema.js";
import { apiWith, callWith, collectOf, pageWith, specWith } from "../support/artifacts.js";
import { runSecretLists } from "../../src/cli/run-secrets.js";
import { scratchDir } from "../support/scratch.js";

/** The run's secrets: the API key and a closed site's Basic credentials, whose user name is an e-mail address the site also identifies its visitor with. */
const ENV = { SERVICE_API_KEY: "key_0123456789abcdef", QA_USER: "tester@corp.example", QA_PASSWORD: "s3cret-Pass-42" };

function closedSpec(overrides: Record<string, unknown> = {}): AuditSpec {
  return specWith({
    environments: {
      staging: {
        key: "prj_demo_staging",
        baseUrl: "http://127.0.0.1:47412",
        auth: { basic: { usernameEnv: "QA_USER", passwordEnv: "QA_PASSWORD" } },
      },
    },
    api: { baseUrl: "http://127.0.0.1:47411", keyEnv: "SERVICE_API_KEY" },
    viewports: ["desktop"],
    ...overrides,
  });
}

const loaded = (spec: AuditSpec) => ({ file: "audits/closed.yaml", spec, sha256: "sha" });
const targetOf = (spec: AuditSpec) =>
  buildTarget(loaded(spec), { env: undefined, viewports: [], pages: [], baseUrl: undefined });

/** The signup page as gathered: the visitor identified by the user name, the key in a collect URL, the password in a console error. */
function gatheredSignup() {
  const identify = callWith({
    kind: "identify",
    method: "identify",
    name: ENV.QA_USER,
    properties: { plan: "pro", contact: ENV.QA_USER },
  });
  const collect = { ...collectOf([identify]), url: `http://127.0.0.1:47411/v1/collect?api_key=${ENV.SERVICE_API_KEY}` };
  return pageWith({
    spec: "audits/closed.yaml",
    page: "signup",
    calls: [identify],
    collect: [collect],
    errors: [{ kind: "console", message: `login as ${ENV.QA_USER}:${ENV.QA_PASSWORD}` }],
  });
}

function saved(spec: AuditSpec): { dir: string; pages: ReturnType<typeof gatheredSignup>[] } {
  const dir = scratchDir("saved-artifacts");
  const pages = [pageWith({ spec: "audits/closed.yaml" }), gatheredSignup()];
  const target = targetOf(spec);
  const gathered = pages.map((page) => ({
    file: target.units.find((unit) => unit.page === page.page)!.artifactFiles[page.viewport]!,
    page,
  }));
  saveArtifacts(
    dir,
    {
      startedAt: new Date(0),
      selection: { pages: [], viewports: [] },
      targets: [{ target, pages: gathered, api: apiWith() }],
    },
    [dir],
    runSecretLists([target], ENV, null).credentials,
  );
  return { dir, pages };
}

test("the saved artifacts hold every page, with the API key and a closed site's secrets redacted in every file", () => {
  const { dir } = saved(closedSpec());
  const files = [
    join(dir, "artifacts", "run.json"),
    ...readdirSync(join(dir, "artifacts", "pages")).map((name) => join(dir, "artifacts", "pages", name)),
  ];
  expect(files).toHaveLength(3);
  const text = files.map((file) => readFileSync(file, "utf8")).join("\n");
  for (const secret of Object.values(ENV)) expect(text).not.toContain(secret);
  expect(text).toContain("«redacted»");
});

test("run.json keeps no credentials of a --base-url, and no page's input: the units as the plan named them, without what their gathering was given", () => {
  const dir = scratchDir("saved-base-url");
  const target = buildTarget(loaded(closedSpec()), {
    env: undefined,
    viewports: [],
    pages: [],
    baseUrl: "http://qa:url-Pass-9931@127.0.0.1:47412",
  });
  saveArtifacts(
    dir,
    { startedAt: new Date(0), selection: { pages: [], viewports: [] }, targets: [{ target, pages: [], api: null }] },
    [dir],
    [],
  );
  const text = readFileSync(join(dir, "artifacts", "run.json"), "utf8");
  expect(text).not.toContain("url-Pass-9931");
  const [savedTarget] = readSavedRun(dir).targets;
  expect(savedTarget!.units.map((unit) => Object.keys(unit).includes("inputs"))).toEqual([false, false]);
});

test("a replay judges identify.pii as the run did, though the user name it sent was redacted; allowPersonalData as the spec says now", () => {
  for (const spec of [closedSpec(), closedSpec({ identify: { required: [], allowPersonalData: ["contact"] } })]) {
    const { dir, pages } = saved(closedSpec());
    const [replayed] = replayedTargets(
      readSavedRun(dir),
      [loaded(spec)],
      { env: undefined, pages: [], viewports: [] },
      dir,
    );
    const pii = (findings: Finding[]) => findings.filter((finding) => finding.check === "identify.pii");
    const asRun = pii(judgeGathered(targetOf(spec), pages, apiWith(), undefined).findings);
    expect(asRun.map((finding) => finding.status)).toEqual(["skip", "fail"]);
    expect(asRun[1]!.message).toContain("the user id is an email address");
    expect(pii(judgeGathered(replayed!.target, replayed!.pages, replayed!.api, undefined).findings)).toEqual(asRun);
  }
});

test("a spec that now audits a page the saved run did not gather is refused, naming it and what to do", () => {
  const { dir } = saved(closedSpec());
  const grown = closedSpec({
    pages: [
      { id: "home", path: "/" },
      { id: "signup", path: "/signup" },
      { id: "pricing", path: "/pricing" },
    ],
  });
  let refused: unknown;
  try {
    replayedTargets(readSavedRun(dir), [loaded(grown)], { env: undefined, pages: [], viewports: [] }, dir);
  } catch (error) {
    refused = error;
  }
  expect(refused).toBeInstanceOf(CliError);
  expect((refused as CliError).exitCode).toBe(2);
  expect((refused as CliError).message).toContain("audits/closed.yaml (staging) now audits page pricing on desktop");
  expect((refused as CliError).hint).toContain(
    `setup-audit run audits/closed.yaml --env staging --save-artifacts --out ${dir}`,
  );
});

test("a refusal's and a GPC unit's artifacts are saved in files of their own and replayed as those units, the page's beside them", () => {
  const spec = closedSpec({ consent: { accept: "auto", reject: "auto", gpc: true, timeoutMs: 5000 } });
  const target = targetOf(spec);
  const consentOf = (unit: "page" | "reject" | "gpc") => ({ unit }) as PageArtifacts["consent"];
  const gathered = target.units.map((unit) => ({
    file: unit.artifactFiles.desktop!,
    page: pageWith({ spec: "audits/closed.yaml", page: unit.page, consent: consentOf(unit.consent ?? "page") }),
  }));
  const dir = scratchDir("saved-artifacts");
  saveArtifacts(
    dir,
    {
      startedAt: new Date(0),
      selection: { pages: [], viewports: [] },
      targets: [{ target, pages: gathered, api: null }],
    },
    [dir],
    runSecretLists([target], ENV, null).credentials,
  );
  expect(readdirSync(join(dir, "artifacts", "pages"))).toHaveLength(target.units.length);
  const [replayed] = replayedTargets(
    readSavedRun(dir),
    [loaded(spec)],
    { env: undefined, pages: [], viewports: [] },
    dir,
  );
  expect(replayed!.pages.map((page) => `${page.page} ${page.consent?.unit}`)).toEqual(
    target.units.map((unit) => `${unit.page} ${unit.consent ?? "page"}`),
  );
});

test("a filmstrip's frames are saved with the artifacts, and a replay gives them back to the output", () => {
  const spec = closedSpec();
  const target = targetOf(spec);
  const runDir = scratchDir("saved-artifacts");
  const frame = "screenshots/closed/views/home.desktop.e0v0.film0.png";
  mkdirSync(join(runDir, "screenshots/closed/views"), { recursive: true });
  writeFileSync(join(runDir, frame), "png");
  const flicker = {
    frames: [],
    signatures: [],
    readAtMs: 0,
    costMs: 0,
    filmstrip: [{ atMs: 16, screen: frame, crop: null }],
  };
  const home = pageWith({ spec: "audits/closed.yaml", page: "home", flicker });
  saveArtifacts(
    runDir,
    {
      startedAt: new Date(0),
      selection: { pages: [], viewports: [] },
      targets: [{ target, pages: [{ file: target.units[0]!.artifactFiles.desktop!, page: home }], api: null }],
    },
    [runDir],
    runSecretLists([target], ENV, null).credentials,
  );
  expect(existsSync(join(runDir, "artifacts", frame))).toBe(true);
  const outDir = scratchDir("replayed");
  restoreScreens([target], [{ pages: [home] } as unknown as TargetResult], join(runDir, "artifacts"), outDir);
  expect(readFileSync(join(outDir, frame), "utf8")).toBe("png");
});

test("a login's end and a page's landing are saved without query and fragment, and a base URL without its user name and password", () => {
  const spec = closedSpec();
  const target = { ...targetOf(spec), baseUrl: "http://qa:pa55@127.0.0.1:47412" };
  const login = {
    requestedUrl: "http://127.0.0.1:47412/login",
    documentStatus: 200,
    loadError: null,
    stepError: null,
    blockedHost: null,
    finalUrl: "http://127.0.0.1:47412/callback?code=tok_123#access_token=tok_456",
  };
  const home = pageWith({
    spec: "audits/closed.yaml",
    page: "home",
    access: { login, landedUrl: "http://127.0.0.1:47412/?session=tok_789", passwordField: false, authRefused: false },
  });
  const dir = scratchDir("saved-artifacts");
  saveArtifacts(
    dir,
    {
      startedAt: new Date(0),
      selection: { pages: [], viewports: [] },
      targets: [{ target, pages: [{ file: target.units[0]!.artifactFiles.desktop!, page: home }], api: null }],
    },
    [dir],
    runSecretLists([target], ENV, null).credentials,
  );
  const text = [
    join(dir, "artifacts", "run.json"),
    join(dir, "artifacts", "pages", target.units[0]!.artifactFiles.desktop!),
  ]
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
  expect(text).not.toMatch(/tok_|pa55/);
  expect(text).toContain('"finalUrl": "http://127.0.0.1:47412/callback"');
  expect(readSavedRun(dir).targets[0]!.baseUrl).toBe("http://127.0.0.1:47412/");
});

test("a saved page that is not JSON any more is refused (exit 2), naming the file and what to do", () => {
  const { dir } = saved(closedSpec());
  const file = join(dir, "artifacts", "pages", readdirSync(join(dir, "artifacts", "pages"))[0]!);
  writeFileSync(file, "{ cut off");
  let refused: unknown;
  try {
    replayedTargets(readSavedRun(dir), [loaded(closedSpec())], { env: undefined, pages: [], viewports: [] }, dir);
  } catch (error) {
    refused = error;
  }
  expect(refused).toBeInstanceOf(CliError);
  expect((refused as CliError).exitCode).toBe(2);
  expect((refused as CliError).message).toContain(`${file} is not a page of saved artifacts`);
});
