import { expect, test } from "@playwright/test";
import { pageDomain } from "../../../src/checks/page/domain.js";
import { contextOf, pageWith, twoEnvironments } from "../../support/artifacts.js";

test.describe("page.domain", () => {
  test("passes when every URL stays on the base URL's host", () => {
    const page = pageWith({
      navigations: ["http://127.0.0.1:47412/", "http://127.0.0.1:47412/thanks"],
      finalUrl: "http://127.0.0.1:47412/thanks",
    });
    const [finding] = pageDomain.evaluate(contextOf([page], twoEnvironments));
    expect(finding).toMatchObject({
      check: "page.domain",
      status: "pass",
      message: "All 2 URL(s) the page went through stayed on 127.0.0.1.",
    });
  });

  test("accepts subdomains of the environment's domain", () => {
    const page = pageWith({
      requestedUrl: "https://shop.example.test/",
      navigations: ["https://shop.example.test/", "https://accounts.example.test/login"],
      finalUrl: "https://accounts.example.test/login",
    });
    const [finding] = pageDomain.evaluate(contextOf([page], twoEnvironments, null, [], "production"));
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
    const page = pageWith({
      requestedUrl: "https://shop.example.test/",
      navigations: ["https://evil-example.test/"],
      finalUrl: "https://evil-example.test/",
    });
    const [finding] = pageDomain.evaluate(contextOf([page], twoEnvironments, null, [], "production"));
    expect(finding?.status).toBe("fail");
  });

  test("still fails a page that left the domain and then failed to load there", () => {
    const page = pageWith({
      loadError: "net::ERR_NAME_NOT_RESOLVED",
      navigations: ["http://127.0.0.1:47412/", "http://tracker.example/"],
      finalUrl: null,
    });
    const [finding] = pageDomain.evaluate(contextOf([page], twoEnvironments));
    expect(finding?.status).toBe("fail");
  });

  test("skips a page that did not load without leaving, and ignores browser-internal documents", () => {
    const findings = pageDomain.evaluate(
      contextOf(
        [
          pageWith({ loadError: "timeout", navigations: ["chrome-error://chromewebdata/"], finalUrl: null }),
          pageWith({ viewport: "mobile", navigations: ["about:blank", "http://127.0.0.1:47412/"] }),
        ],
        twoEnvironments,
      ),
    );
    expect(findings.map((finding) => finding.status)).toEqual(["skip", "pass"]);
  });
});
