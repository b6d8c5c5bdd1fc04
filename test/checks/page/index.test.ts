import { expect, test } from "@playwright/test";
import { pageErrors, pageLoad } from "../../../src/checks/page/index.js";
import { viewportsCoverage } from "../../../src/checks/viewports.js";
import { contextOf, pageWith } from "../../support/artifacts.js";

test.describe("page.load", () => {
  test("passes for a page that loaded", () => {
    expect(pageLoad.evaluate(contextOf([pageWith()]))[0]?.status).toBe("pass");
  });

  test("fails with the reason when it did not", () => {
    const [finding] = pageLoad.evaluate(contextOf([pageWith({ loadError: "the server answered HTTP 404", documentStatus: 404 })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("HTTP 404");
  });

  test("fails when a journey step failed, naming the step", () => {
    const spec = contextOf([]).spec;
    const withSteps = { ...spec, pages: [{ id: "home", path: "/", steps: [{ click: "#submit" }] }] };
    const [finding] = pageLoad.evaluate(contextOf([pageWith({ stepError: { step: 0, message: "timeout" } })], withSteps));
    expect(finding).toMatchObject({ status: "fail", evidence: { step: 1, action: 'click "#submit"' } });
  });
});

test.describe("page.errors", () => {
  test("passes without errors", () => {
    expect(pageErrors.evaluate(contextOf([pageWith()]))[0]?.status).toBe("pass");
  });

  test("warns on an uncaught exception", () => {
    const [finding] = pageErrors.evaluate(contextOf([pageWith({ errors: [{ kind: "exception", message: "expsvc is not defined" }] })]));
    expect(finding?.status).toBe("warn");
    expect(finding?.message).toContain("expsvc is not defined");
  });
});

test.describe("viewports.coverage", () => {
  test("passes when mobile and desktop were audited", () => {
    const [finding] = viewportsCoverage.evaluate(contextOf([pageWith(), pageWith({ viewport: "mobile", mobile: true })]));
    expect(finding).toMatchObject({ status: "pass", page: null, viewport: null });
  });

  test("fails when only desktop was audited", () => {
    const [finding] = viewportsCoverage.evaluate(contextOf([pageWith()]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("No mobile viewport");
  });

  test("counts a mobile device name as mobile", () => {
    const [finding] = viewportsCoverage.evaluate(contextOf([pageWith(), pageWith({ viewport: "iPhone 13", mobile: true })]));
    expect(finding?.status).toBe("pass");
  });
});
