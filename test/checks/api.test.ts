import { expect, test } from "@playwright/test";
import type { ApiArtifacts } from "../../src/artifacts/types.js";
import { apiAuth } from "../../src/checks/api/auth.js";
import { apiGoals } from "../../src/checks/api/goals.js";
import { apiProject } from "../../src/checks/api/project.js";
import { apiWorkspace } from "../../src/checks/api/workspace.js";
import type { Check } from "../../src/checks/check.js";
import { runChecks } from "../../src/checks/index.js";
import { goalListSchema, projectListSchema } from "../../src/api/schemas.js";
import {
  apiWith,
  contextOf,
  exchangeOf,
  failedExchange,
  normalised,
  specWith,
  specWithApi,
} from "../support/artifacts.js";

const API_CHECKS: readonly Check[] = [apiAuth, apiProject, apiWorkspace, apiGoals];

/** One API check as the runner judges it: without an `api` section it is not judged, saying why. */
function judge(check: Check, api: ApiArtifacts | null, spec = specWithApi()) {
  const findings = runChecks(contextOf([], spec, api), [check]);
  expect(findings).toHaveLength(1);
  expect(findings[0]).toMatchObject({ check: check.id, page: null, viewport: null, goal: null, experiment: null });
  return findings[0]!;
}

const statuses = (api: ApiArtifacts | null, spec = specWithApi()) =>
  API_CHECKS.map((check) => judge(check, api, spec).status);

const PROJECTS_URL = "http://127.0.0.1:47411/v1/projects";

test.describe("all four", () => {
  test("pass when the service agrees with the spec", () => {
    expect(statuses(apiWith())).toEqual(["pass", "pass", "pass", "pass"]);
  });

  test("skip without an api section, saying how to turn them on", () => {
    expect(statuses(null, specWith())).toEqual(["skip", "skip", "skip", "skip"]);
    expect(judge(apiProject, null, specWith()).message).toContain("The spec has no api section");
  });

  test("without a key: api.auth fails with what to set, the others skip pointing at it", () => {
    const api = apiWith({ keySet: false, projects: null, goals: null });
    expect(statuses(api)).toEqual(["fail", "skip", "skip", "skip"]);
    expect(judge(apiAuth, api).message).toBe(
      "No API key: set SERVICE_API_KEY to the service's API key (the spec's api.keyEnv names that variable). The other API checks were skipped.",
    );
    expect(judge(apiGoals, api).message).toBe("Not judged: no API key in SERVICE_API_KEY (see api.auth).");
  });
});

test.describe("api.auth", () => {
  test("fails on 401 with the service's words and what to do", () => {
    const api = apiWith({
      projects: failedExchange({ kind: "http", status: 401, detail: 'HTTP 401 with body {"error":"invalid api key"}' }),
      goals: null,
    });
    expect(statuses(api)).toEqual(["fail", "skip", "skip", "skip"]);
    expect(judge(apiAuth, api).message).toBe(
      `The service rejected the key in SERVICE_API_KEY (GET ${PROJECTS_URL}: HTTP 401 with body {"error":"invalid api key"}). Set SERVICE_API_KEY to a valid API key of workspace "Acme Marketing".`,
    );
  });

  test("fails on 403, as a key without access", () => {
    const api = apiWith({
      projects: failedExchange({ kind: "http", status: 403, detail: "HTTP 403 with an empty body" }),
      goals: null,
    });
    expect(judge(apiAuth, api).message).toContain("knows the key in SERVICE_API_KEY but refused it the project list");
  });

  test("passes on a 2xx whose body could not be understood: the key was accepted", () => {
    const api = apiWith({
      projects: { ...failedExchange({ kind: "malformed", status: 200, detail: "the body is not JSON" }), status: 200 },
      goals: null,
    });
    expect(statuses(api)).toEqual(["pass", "fail", "skip", "skip"]);
  });

  test("skips when no answer tells (network, 5xx)", () => {
    const api = apiWith({
      projects: failedExchange({ kind: "network", status: null, detail: "connect ECONNREFUSED 127.0.0.1:9" }, 4),
      goals: null,
    });
    expect(judge(apiAuth, api)).toMatchObject({
      status: "skip",
      message: "Not judged: the service gave no answer that tells whether the key is valid (see api.project).",
    });
  });
});

test.describe("api.project", () => {
  const withProjects = (projects: Record<string, unknown>[]) =>
    apiWith({ projects: exchangeOf(normalised(projectListSchema, projects)) });

  test("passes by key, naming the field and the project", () => {
    expect(judge(apiProject, apiWith())).toMatchObject({
      status: "pass",
      message: 'The service lists the project: project "Demo shop (staging)" has key `prj_demo_staging`.',
      evidence: { field: "key", index: 0 },
    });
  });

  test("passes by domain when the element names no key", () => {
    expect(judge(apiProject, withProjects([{ id: "p_9", domains: ["127.0.0.1"] }]))).toMatchObject({
      status: "pass",
      message: "The service lists the project by its domain: project p_9 has domains `127.0.0.1`.",
    });
  });

  test("with a vendor's SDK key, judges the service's project by environments.*.projectKey and names that field", () => {
    const spec = specWithApi();
    spec.environments.staging = {
      ...spec.environments.staging!,
      key: "wk_segment_staging",
      projectKey: "prj_demo_staging",
    };
    expect(judge(apiProject, apiWith(), spec)).toMatchObject({
      status: "pass",
      message: 'The service lists the project: project "Demo shop (staging)" has key `prj_demo_staging`.',
    });
    const other = judge(apiProject, withProjects([{ key: "prj_demo_stage", domain: "127.0.0.1", name: "Demo" }]), spec);
    expect(other.message).toContain(
      "not `prj_demo_staging`. If that is this environment's project, fix environments.staging.projectKey.",
    );
  });

  test("warns when the domain is listed under another key", () => {
    const finding = judge(apiProject, withProjects([{ key: "prj_demo_stage", domain: "127.0.0.1", name: "Demo" }]));
    expect(finding.status).toBe("warn");
    expect(finding.message).toBe(
      'The service lists the domain `127.0.0.1` (project "Demo"), but under the key `prj_demo_stage`, not `prj_demo_staging`. If that is this environment\'s project, fix environments.staging.key.',
    );
  });

  test("fails when the domain is listed under another environment's key", () => {
    const spec = specWithApi();
    spec.environments.production = { key: "prj_demo_prod", baseUrl: "https://shop.example.test" };
    const finding = judge(apiProject, withProjects([{ key: "prj_demo_prod", domain: "127.0.0.1" }]), spec);
    expect(finding.status).toBe("fail");
    expect(finding.message).toContain(
      "under `prj_demo_prod`, the spec's production key, while environment staging uses `prj_demo_staging`: staging and production are mixed up.",
    );
  });

  test("fails when neither key nor domain is listed, with a did-you-mean", () => {
    const finding = judge(
      apiProject,
      withProjects([{ key: "prj_demo_stagin", domain: "shop.example.test" }, { key: "prj_other" }]),
    );
    expect(finding).toMatchObject({ status: "fail", evidence: { nearMisses: ["prj_demo_stagin"], listed: 2 } });
    expect(finding.message).toBe(
      "Neither the key `prj_demo_staging` nor the domain `127.0.0.1` of environment staging is among the 2 project(s) the service lists — did you mean `prj_demo_stagin`? " +
        "Fix environments.staging.key (or its domain), or use an API key of the workspace that holds the project.",
    );
  });

  test("fails when the list could not be read, with the attempts made", () => {
    const api = apiWith({
      projects: failedExchange({ kind: "http", status: 503, detail: "HTTP 503 with an empty body" }, 4),
      goals: null,
    });
    expect(judge(apiProject, api).message).toBe(
      `Could not read the project list (GET ${PROJECTS_URL}): HTTP 503 with an empty body, after 4 attempts in 40 ms. The service is having trouble: run the audit later.`,
    );
  });
});

test.describe("api.workspace", () => {
  const withElement = (element: Record<string, unknown>) =>
    apiWith({
      projects: exchangeOf(normalised(projectListSchema, [{ key: "prj_demo_staging", name: "Demo", ...element }])),
    });

  test("passes by name or by id", () => {
    expect(judge(apiWorkspace, withElement({ workspace: "Acme Marketing" })).status).toBe("pass");
    const byId = specWith({ ...specWithApi(), workspace: "ws_1" });
    expect(judge(apiWorkspace, withElement({ workspaceId: "ws_1", workspaceName: "Acme" }), byId).status).toBe("pass");
  });

  test("fails on another workspace, naming it", () => {
    const finding = judge(apiWorkspace, withElement({ workspace: { id: "ws_2", name: "Acme Sales" } }));
    expect(finding).toMatchObject({
      status: "fail",
      evidence: { workspace: "Acme Marketing", listed: { id: "ws_2", name: "Acme Sales" } },
    });
    expect(finding.message).toBe(
      'Project "Demo" belongs to workspace "Acme Sales", id ws_2 in the service, not "Acme Marketing". Fix the spec\'s workspace, or move the project to the right workspace.',
    );
  });

  test("suggests a near miss", () => {
    expect(judge(apiWorkspace, withElement({ workspaceName: "ACME marketing" })).message).toContain(
      'not "Acme Marketing" — did you mean `ACME marketing`?',
    );
  });

  test("skips when the element names no workspace, saying so", () => {
    expect(judge(apiWorkspace, withElement({}))).toMatchObject({
      status: "skip",
      message:
        'Not judged: the service\'s element for project "Demo" names no workspace (no workspace, workspaceName or workspaceId field, nor one nested), so the workspace cannot be checked.',
    });
  });

  test("skips when the project is not listed", () => {
    expect(
      judge(apiWorkspace, apiWith({ projects: exchangeOf(normalised(projectListSchema, [{ key: "prj_other" }])) }))
        .message,
    ).toBe("Not judged: the project is not in the service's project list (see api.project).");
  });
});

test.describe("api.goals", () => {
  const withGoals = (goals: Record<string, unknown>[]) =>
    apiWith({ goals: exchangeOf(normalised(goalListSchema, goals)) });

  for (const condition of [
    "signup_success",
    { equals: "signup_success" },
    { value: "signup_success" },
    { type: "event", event: "signup_success" },
  ]) {
    test(`passes on the condition ${JSON.stringify(condition)}`, () => {
      expect(judge(apiGoals, withGoals([{ name: "Signup completed", condition }])).status).toBe("pass");
    });
  }

  test("fails on a near-miss condition, with a did-you-mean", () => {
    const finding = judge(apiGoals, withGoals([{ name: "Signup completed", condition: { equals: "Signup Success" } }]));
    expect(finding.status).toBe("fail");
    expect(finding.message).toBe(
      'goal "Signup completed" has the condition `Signup Success` in the service, but the spec\'s event is `signup_success` (a near miss: did you mean `signup_success`?). ' +
        "Make each goal's condition in the service equal the event the page sends, exactly, or fix the spec's goals.",
    );
  });

  test("fails on a different condition", () => {
    const finding = judge(apiGoals, withGoals([{ name: "Signup completed", condition: "account_created" }]));
    expect(finding.message).toMatch(
      /^goal "Signup completed" has the condition `account_created` in the service, but the spec's event is `signup_success`\. /,
    );
  });

  test("fails on a missing goal, naming a near miss", () => {
    const finding = judge(apiGoals, withGoals([{ name: "Signup Completed", condition: "signup_success" }]));
    expect(finding.message).toMatch(
      /^goal "Signup completed" is not in the service \(did you mean `Signup Completed`\?\)\. /,
    );
    expect(finding.evidence).toMatchObject({
      listed: ["Signup Completed"],
      goals: [{ name: "Signup completed", found: false }],
    });
  });

  test("fails on a condition it cannot read", () => {
    expect(
      judge(apiGoals, withGoals([{ name: "Signup completed", condition: { regex: "signup_.*" } }])).message,
    ).toContain(
      'goal "Signup completed" has no condition setup-audit can read (a string, or an object with equals, value or event)',
    );
  });

  test("fails when the goals could not be read", () => {
    const goals = failedExchange(
      { kind: "http", status: 404, detail: "HTTP 404 with an empty body" },
      1,
      "http://127.0.0.1:47411/v1/projects/prj_demo_staging/goalz",
    );
    expect(judge(apiGoals, apiWith({ goals })).message).toBe(
      "Could not read the service's goals (GET http://127.0.0.1:47411/v1/projects/prj_demo_staging/goalz): HTTP 404 with an empty body — the service has no such endpoint. Fix api.goalsPath.",
    );
  });

  test("skips without goalsPath, or without goals in the spec", () => {
    expect(judge(apiGoals, apiWith({ goals: null }), specWithApi({ goalsPath: undefined })).message).toContain(
      "has no goalsPath",
    );
    expect(judge(apiGoals, apiWith(), specWith({ ...specWithApi(), goals: [] })).message).toBe(
      "The spec defines no goals.",
    );
  });
});
