import { expect, test } from "@playwright/test";
import type { PageArtifacts } from "../../src/artifacts/types.js";
import type { CallBaseline } from "../../src/artifacts/baseline.js";
import { baselineCalls } from "../../src/checks/baseline/calls.js";
import { runChecks } from "../../src/checks/index.js";
import { callWith, contextOf, pageWith, specWith } from "../support/artifacts.js";

const identify = callWith({ kind: "identify", name: "user-1", properties: { plan: "pro" } });
const signup = (viewport: string, calls = [identify, callWith()]) => pageWith({ page: "signup", viewport, calls });
const home = (viewport: string) => pageWith({ page: "home", viewport });

/** The baseline of a good run: home fired nothing, signup fired identify and signup_success on both viewports. */
const BASELINE: CallBaseline = {
  spec: "audits/demo.yaml",
  environment: "staging",
  project: "Demo shop",
  pages: {
    home: { desktop: { identify: false, track: [] }, mobile: { identify: false, track: [] } },
    signup: {
      desktop: { identify: true, track: ["signup_success"] },
      mobile: { identify: true, track: ["signup_success"] },
    },
  },
};

const GOOD_RUN = [home("desktop"), home("mobile"), signup("desktop"), signup("mobile")];

/** baseline.calls as the runner judges it: without a baseline it is not judged at all. */
function judge(pages: PageArtifacts[], baseline: CallBaseline | null = BASELINE, spec = specWith()) {
  return runChecks({ ...contextOf(pages, spec), ...(baseline ? { baseline } : {}) }, [baselineCalls]);
}

/** `home · desktop pass, signup · mobile fail`: every finding's place and status, in order. */
const statusesOf = (findings: ReturnType<typeof judge>) =>
  findings.map((found) => `${found.page} · ${found.viewport} ${found.status}`).join(", ");

test("an unchanged run passes on every page × viewport", () => {
  const findings = judge(GOOD_RUN);
  expect(statusesOf(findings)).toBe(
    "home · desktop pass, home · mobile pass, signup · desktop pass, signup · mobile pass",
  );
  expect(findings[0]?.message).toBe("Nothing fired on home · desktop, as in the baseline.");
  expect(findings[3]?.message).toBe("`signup_success` and `identify` fired on signup · mobile, as in the baseline.");
  expect(findings[3]?.check).toBe("baseline.calls");
});

test("an event that no longer fires fails its page × viewport, named, with what to do", () => {
  const findings = judge([home("desktop"), home("mobile"), signup("desktop"), signup("mobile", [identify])]);
  expect(statusesOf(findings)).toBe(
    "home · desktop pass, home · mobile pass, signup · desktop pass, signup · mobile fail",
  );
  expect(findings[3]?.message).toBe(
    "`signup_success` fired on signup · mobile in the baseline but not in this run — a regression; fix the page, or refresh the baseline with `setup-audit baseline` if the change is intended.",
  );
  expect(findings[3]?.evidence).toEqual({
    baseline: { identify: true, track: ["signup_success"] },
    run: { identify: true, track: [] },
    missing: { identify: false, track: ["signup_success"] },
    added: { identify: false, track: [] },
  });
});

test("a viewport that fires nothing any more fails, naming everything it lost", () => {
  const findings = judge([home("desktop"), home("mobile"), signup("desktop"), signup("mobile", [])]);
  expect(findings[3]).toMatchObject({ page: "signup", viewport: "mobile", status: "fail" });
  expect(findings[3]?.message).toBe(
    "Nothing fired on signup · mobile, where `signup_success` and `identify` fired in the baseline — a regression; fix the page, or refresh the baseline with `setup-audit baseline` if the change is intended.",
  );
});

test("a page that fires nothing any more fails on every viewport", () => {
  const findings = judge([home("desktop"), home("mobile"), signup("desktop", []), signup("mobile", [])]);
  expect(statusesOf(findings)).toBe(
    "home · desktop pass, home · mobile pass, signup · desktop fail, signup · mobile fail",
  );
});

test("a renamed event fails for the lost name and names the new one", () => {
  const findings = judge([
    home("desktop"),
    home("mobile"),
    signup("desktop"),
    signup("mobile", [identify, callWith({ name: "signupSuccess" })]),
  ]);
  expect(findings[3]?.status).toBe("fail");
  expect(findings[3]?.message).toMatch(
    /^`signup_success` fired on signup · mobile in the baseline but not in this run — .* New here: `signupSuccess`\.$/,
  );
});

test("a new event is a warning that says how to take it into the baseline", () => {
  const findings = judge([
    home("desktop"),
    pageWith({ page: "home", viewport: "mobile", calls: [callWith({ name: "banner_seen" })] }),
    signup("desktop"),
    signup("mobile"),
  ]);
  expect(statusesOf(findings)).toBe(
    "home · desktop pass, home · mobile warn, signup · desktop pass, signup · mobile pass",
  );
  expect(findings[1]?.message).toBe(
    "`banner_seen` fired on home · mobile, but not in the baseline — new; if it is intended, refresh the baseline with `setup-audit baseline` so that losing it later fails the audit.",
  );
});

test("a page × viewport the baseline does not know is a warning", () => {
  const findings = judge([...GOOD_RUN, signup("iPhone 13")]);
  expect(findings[4]).toMatchObject({ page: "signup", viewport: "iPhone 13", status: "warn" });
  expect(findings[4]?.message).toBe(
    "signup · iPhone 13 is not in the baseline (`signup_success` and `identify` fired there) — refresh the baseline with `setup-audit baseline` so that a later loss there fails the audit.",
  );
});

test("a page that did not load is not compared: page.load reports it", () => {
  const findings = judge([
    home("desktop"),
    home("mobile"),
    signup("desktop"),
    pageWith({ page: "signup", viewport: "mobile", loadError: "net::ERR_CONNECTION_REFUSED" }),
  ]);
  expect(findings[3]).toMatchObject({
    status: "skip",
    message: "Not compared with the baseline: the page did not load (page.load says why).",
  });
});

test("a page × viewport narrowed out of this run (--page, --viewport, --shard) is skipped, not failed", () => {
  const findings = judge([signup("desktop")]);
  expect(statusesOf(findings)).toBe(
    "signup · desktop pass, home · desktop skip, home · mobile skip, signup · mobile skip",
  );
  expect(findings[1]?.message).toBe("Not audited in this run; nothing fired on home · desktop in the baseline either.");
  expect(findings[3]?.message).toBe(
    "Not audited in this run (narrowed with --page, --viewport or --shard), so what fired on signup · mobile in the baseline (`signup_success` and `identify`) was not compared.",
  );
});

test("a page or viewport gone from the spec fails when events fired there in the baseline", () => {
  const spec = specWith({ pages: [{ id: "home", path: "/" }], viewports: ["desktop"] });
  const findings = judge([home("desktop")], BASELINE, spec);
  expect(statusesOf(findings)).toBe(
    "home · desktop pass, home · mobile skip, signup · desktop fail, signup · mobile fail",
  );
  expect(findings[2]?.message).toBe(
    '`signup_success` and `identify` fired on signup · desktop in the baseline, but this run did not audit it: the spec has no page "signup" — restore it in the spec, or refresh the baseline with `setup-audit baseline` if the change is intended.',
  );
  expect(findings[3]?.message).toContain('the spec has no page "signup" and the spec does not list viewport "mobile"');
});

test("without a baseline the check gives no finding at all", () => {
  expect(judge(GOOD_RUN, null)).toEqual([]);
  expect(runChecks(contextOf(GOOD_RUN)).filter((found) => found.check === "baseline.calls")).toEqual([]);
});
