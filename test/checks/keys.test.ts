import { expect, test } from "@playwright/test";
import { pageDomain, sdkKey } from "../../src/checks/keys.js";
import { contextOf, pageWith, specWith } from "../support/artifacts.js";

const twoEnvironments = specWith({
  environments: {
    staging: { key: "prj_demo_staging", baseUrl: "http://127.0.0.1:47412" },
    production: { key: "prj_demo_prod", baseUrl: "https://shop.example.test", domain: "example.test" },
  },
  defaultEnvironment: "staging",
});

test.describe("sdk.key", () => {
  test("passes when the page installs the environment's key and no other", () => {
    const [finding] = sdkKey.evaluate(contextOf([pageWith()], twoEnvironments));
    expect(finding).toMatchObject({ check: "sdk.key", status: "pass", page: "home", viewport: "desktop" });
    expect(finding?.message).toBe("The page installs `prj_demo_staging`, seen in the SDK's script tag (data-project-key), and no other environment's key.");
  });

  test("fails when the script tag installs another environment's key, naming it once", () => {
    const page = pageWith({ sdkTagKey: "prj_demo_prod", keySightings: [{ key: "prj_demo_prod", where: "script-tag", detail: "data-project-key" }] });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      'On desktop: the SDK\'s script tag installs `prj_demo_prod` (environment "production"\'s key). Install only environment "staging"\'s key `prj_demo_staging` on this environment\'s pages; never mix keys.',
    );
  });

  test("fails when another environment's key is seen anywhere, naming where, without the URL's query", () => {
    const page = pageWith({
      keySightings: [
        { key: "prj_demo_staging", where: "script-tag", detail: "data-project-key" },
        { key: "prj_demo_prod", where: "collect", detail: "http://127.0.0.1:47411/v1/collect?key=prj_demo_prod&uid=jane%40example.org" },
        { key: "prj_demo_prod", where: "sdk-global", detail: "expsvc.config.fallbackKey" },
      ],
    });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain(
      'environment "production"\'s key `prj_demo_prod` is in a collect request (http://127.0.0.1:47411/v1/collect); environment "production"\'s key `prj_demo_prod` is in the SDK global (expsvc.config.fallbackKey).',
    );
    expect(JSON.stringify(finding)).not.toContain("jane");
  });

  test("fails when the script tag installs a key the spec does not know", () => {
    const page = pageWith({ sdkTagKey: "prj_someone_else", keySightings: [] });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("the SDK's script tag installs `prj_someone_else`, which is no key of this spec");
  });

  test("fails when the environment's key is seen nowhere", () => {
    const [finding] = sdkKey.evaluate(contextOf([pageWith({ sdkTagKey: null, keySightings: [] })], twoEnvironments));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      'Environment "staging"\'s key `prj_demo_staging` was seen neither in the SDK\'s script tag nor in its global or collect requests. Install the SDK with key `prj_demo_staging`.',
    );
  });

  test("passes on a key seen only in the SDK global", () => {
    const page = pageWith({ sdkTagKey: null, keySightings: [{ key: "prj_demo_staging", where: "sdk-global", detail: "expsvc.projectKey" }] });
    const [finding] = sdkKey.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("pass");
  });

  test("skips a page that did not load, and one whose SDK never loaded", () => {
    const findings = sdkKey.evaluate(
      contextOf(
        [pageWith({ loadError: "net::ERR_CONNECTION_REFUSED" }), pageWith({ viewport: "mobile", sdkReadyAtMs: null, sdkScripts: [{ url: "http://127.0.0.1:47411/sdk/v1/sdk.js", status: 404, failure: null, atMs: 10 }] })],
        twoEnvironments,
      ),
    );
    expect(findings.map((finding) => [finding.viewport, finding.status, finding.message])).toEqual([
      ["desktop", "skip", "Not judged: the page did not load."],
      ["mobile", "skip", "Not judged: the SDK did not load (sdk.present reports why)."],
    ]);
  });
});

test.describe("page.domain", () => {
  test("passes when every URL stays on the base URL's host", () => {
    const page = pageWith({ navigations: ["http://127.0.0.1:47412/", "http://127.0.0.1:47412/thanks"], finalUrl: "http://127.0.0.1:47412/thanks" });
    const [finding] = pageDomain.evaluate(contextOf([page], twoEnvironments));
    expect(finding).toMatchObject({ check: "page.domain", status: "pass", message: "All 2 URL(s) the page went through stayed on 127.0.0.1." });
  });

  test("accepts subdomains of the environment's domain", () => {
    const page = pageWith({
      requestedUrl: "https://shop.example.test/",
      navigations: ["https://shop.example.test/", "https://accounts.example.test/login"],
      finalUrl: "https://accounts.example.test/login",
    });
    const [finding] = pageDomain.evaluate({ ...contextOf([page], twoEnvironments), environment: "production" });
    expect(finding?.status).toBe("pass");
  });

  test("fails naming the URL that left, without its query", () => {
    const page = pageWith({
      navigations: ["http://127.0.0.1:47412/offsite", "http://localhost:47413/thanks?email=jane%40example.org"],
      finalUrl: "http://localhost:47413/thanks?email=jane%40example.org",
    });
    const [finding] = pageDomain.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      "On desktop, the page left 127.0.0.1 for http://localhost:47413/thanks. Keep redirects and the journey's links on 127.0.0.1 or its subdomains.",
    );
    expect(finding?.evidence).toEqual({ domain: "127.0.0.1", left: ["http://localhost:47413/thanks"] });
  });

  test("a host that merely ends like the domain is another site", () => {
    const page = pageWith({ requestedUrl: "https://shop.example.test/", navigations: ["https://evil-example.test/"], finalUrl: "https://evil-example.test/" });
    const [finding] = pageDomain.evaluate({ ...contextOf([page], twoEnvironments), environment: "production" });
    expect(finding?.status).toBe("fail");
  });

  test("still fails a page that left the domain and then failed to load there", () => {
    const page = pageWith({ loadError: "net::ERR_NAME_NOT_RESOLVED", navigations: ["http://127.0.0.1:47412/", "http://tracker.example/"], finalUrl: null });
    const [finding] = pageDomain.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("fail");
  });

  test("skips a page that did not load without leaving, and ignores browser-internal documents", () => {
    const findings = pageDomain.evaluate(
      contextOf([pageWith({ loadError: "timeout", navigations: ["chrome-error://chromewebdata/"], finalUrl: null }), pageWith({ viewport: "mobile", navigations: ["about:blank", "http://127.0.0.1:47412/"] })], twoEnvironments),
    );
    expect(findings.map((finding) => finding.status)).toEqual(["skip", "pass"]);
  });
});
