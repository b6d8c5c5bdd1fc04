import { expect, test } from "@playwright/test";
import { closeServer, listen, type ListeningServer } from "../../fixtures/http.js";
import { FIXTURE_API_KEY, FIXTURE_GOALS } from "../../fixtures/service/api.js";
import { createServiceHandler } from "../../fixtures/service/service.js";
import { askService, USUAL_PATHS } from "../../src/init/service-project.js";

/** What `init --api` asks the mock service about the key's project, through run's own client and matching rules. */

const KEY_ENV = "SETUP_AUDIT_INIT_TEST_KEY";
let service: ListeningServer;

test.beforeAll(async () => {
  process.env[KEY_ENV] = FIXTURE_API_KEY;
  service = await listen(createServiceHandler(), "127.0.0.1", 0);
});

test.afterAll(() => closeServer(service.server));

const ask = (key: string, baseUrl: string, apiBase = service.origin) =>
  askService({ api: { baseUrl: apiBase, keyEnv: KEY_ENV }, key, baseUrl });

test("the project the key names gives the workspace, the project's name, its goals and the paths that answered", async () => {
  expect(await ask("prj_demo_staging", "http://127.0.0.1:47412")).toEqual({
    baseUrl: service.origin,
    keyEnv: KEY_ENV,
    workspace: "Acme Marketing",
    project: "Demo shop (staging)",
    projectKey: null,
    goals: FIXTURE_GOALS.map((goal) => ({ name: goal.name, event: goal.condition.equals })),
    goalsPath: USUAL_PATHS.goalsPath,
    recentEventsPath: USUAL_PATHS.recentEventsPath,
    problem: null,
  });
});

test("a vendor's key beside the service: the project listed under the site's domain gives its own key as projectKey", async () => {
  const facts = await ask("HFbafRl2KfWk7bTOoPX6WvY8AxSgNTG2", "https://shop.example.test");
  expect(facts).toMatchObject({
    workspace: "Acme Marketing",
    project: "Demo shop (production)",
    projectKey: "prj_demo_prod",
    goalsPath: USUAL_PATHS.goalsPath,
    problem: null,
  });
});

test("a project the service does not list, or a refused key, is a problem said in words, the key never in them", async () => {
  expect((await ask("prj_unknown", "https://unknown.example.test")).problem).toBe(
    "no project in its list names the key prj_unknown or the domain unknown.example.test",
  );
  const refused = await ask("prj_demo_staging", "http://127.0.0.1:47412", `${service.origin}/faults/401`);
  expect(refused).toMatchObject({ workspace: null, project: null, goals: null, goalsPath: null });
  expect(refused.problem).toContain("HTTP 401");
  expect(refused.problem).not.toContain(FIXTURE_API_KEY);
});
