import { expect, test } from "@playwright/test";
import { pageErrors } from "../../../src/checks/page/errors.js";
import { pageLoad } from "../../../src/checks/page/load.js";
import { viewportsCoverage } from "../../../src/checks/viewports/coverage.js";
import { contextOf, pageWith } from "../../support/artifacts.js";

test.describe("page.load", () => {
  test("passes for a page that loaded", () => {
    expect(pageLoad.evaluate(contextOf([pageWith()]))[0]?.status).toBe("pass");
  });

  test("fails with the reason when it did not", () => {
    const [finding] = pageLoad.evaluate(
      contextOf([pageWith({ loadError: "the server answered HTTP 404", documentStatus: 404 })]),
    );
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("HTTP 404");
  });

  test("fails when a journey step failed, naming the step", () => {
    const spec = contextOf([]).spec;
    const withSteps = { ...spec, pages: [{ id: "home", path: "/", steps: [{ click: "#submit" }] }] };
    const [finding] = pageLoad.evaluate(
      contextOf([pageWith({ stepError: { step: 0, message: "timeout" } })], withSteps),
    );
    expect(finding).toMatchObject({ status: "fail", evidence: { step: 1, action: 'click "#submit"' } });
  });

  test("says which of the page's pictures were left out rather than saved with a secret in them, and why, without changing its verdict", () => {
    const why = "the field #coupon, which a step typed a secret or a canary into, was not on the page to be masked";
    const picturesLeftOut = [{ picture: "screenshot" as const, why }];
    const [finding] = pageLoad.evaluate(contextOf([pageWith({ screenshot: null, picturesLeftOut })]));
    expect(finding?.status).toBe("pass");
    expect(finding?.message).toMatch(
      /and its journey completed\. Its screenshot was not saved: the field #coupon, .*to be masked\.$/,
    );
    expect(finding?.evidence).toMatchObject({ picturesLeftOut });
    expect(pageLoad.evaluate(contextOf([pageWith()]))[0]?.message).not.toContain("not saved");
  });
});

test.describe("page.errors", () => {
  test("passes without errors", () => {
    expect(pageErrors.evaluate(contextOf([pageWith()]))[0]?.status).toBe("pass");
  });

  test("warns on an uncaught exception", () => {
    const [finding] = pageErrors.evaluate(
      contextOf([pageWith({ errors: [{ kind: "exception", message: "expsvc is not defined" }] })]),
    );
    expect(finding?.status).toBe("warn");
    expect(finding?.message).toContain("expsvc is not defined");
  });

  test("names a failed request's URL, every query value hidden, in the message and the evidence", () => {
    const failed = {
      kind: "console" as const,
      message: "Failed to load resource: the server responded with a status of 404 (Not Found)",
      url: "http://127.0.0.1:47412/img/a.png?v=3&session=s3cret-session#top",
    };
    const [finding] = pageErrors.evaluate(
      contextOf([
        pageWith({
          errors: [
            failed,
            {
              kind: "console",
              message: "Failed to load resource: net::ERR_CONNECTION_REFUSED",
              url: "http://127.0.0.1:9/x.js",
            },
          ],
        }),
      ]),
    );
    expect(finding?.status).toBe("warn");
    expect(finding?.message).toBe(
      '2 error(s), first: console "Failed to load resource: the server responded with a status of 404 (Not Found)" for http://127.0.0.1:47412/img/a.png?v=…&session=…#…. Fix them in the page\'s code.',
    );
    expect(finding?.evidence).toEqual({
      errors: [
        { ...failed, url: "http://127.0.0.1:47412/img/a.png?v=…&session=…#…" },
        {
          kind: "console",
          message: "Failed to load resource: net::ERR_CONNECTION_REFUSED",
          url: "http://127.0.0.1:9/x.js",
        },
      ],
    });
    expect(JSON.stringify(finding)).not.toContain("s3cret-session");
  });
});

test.describe("viewports.coverage", () => {
  test("passes when mobile and desktop were audited", () => {
    const [finding] = viewportsCoverage.evaluate(
      contextOf([pageWith(), pageWith({ viewport: "mobile", mobile: true })]),
    );
    expect(finding).toMatchObject({ status: "pass", page: null, viewport: null });
  });

  test("fails when only desktop was audited", () => {
    const [finding] = viewportsCoverage.evaluate(contextOf([pageWith()]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("No mobile viewport");
  });

  test("counts a mobile device name as mobile", () => {
    const [finding] = viewportsCoverage.evaluate(
      contextOf([pageWith(), pageWith({ viewport: "iPhone 13", mobile: true })]),
    );
    expect(finding?.status).toBe("pass");
  });
});
