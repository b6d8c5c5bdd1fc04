import { expect, test } from "@playwright/test";
import { verdictOf } from "../../src/results/summary.js";
import { isProblem, problemsOf, worstStatus, type Finding } from "../../src/findings/finding.js";
import { findingWith } from "../support/artifacts.js";

const found = (check: Finding["check"], status: Finding["status"]): Finding =>
  findingWith({
    check,
    status,
    spec: "s.yaml",
  });

test("the worst status wins, and nothing at all is a skip", () => {
  expect(worstStatus(["pass", "warn", "skip"])).toBe("warn");
  expect(worstStatus(["pass", "fail", "warn"])).toBe("fail");
  expect(worstStatus([])).toBe("skip");
  expect(worstStatus(["skip", "skip"])).toBe("skip");
});

test("the findings to act on are those that failed or warned, in their order", () => {
  expect((["fail", "warn", "pass", "skip", null] as const).map(isProblem)).toEqual([true, true, false, false, false]);
  const findings = [
    found("page.errors", "warn"),
    found("sdk.order", "pass"),
    found("sdk.present", "fail"),
    found("events.expected", "skip"),
  ];
  expect(problemsOf(findings).map((finding) => finding.check)).toEqual(["page.errors", "sdk.present"]);
});

test("warnings fail the verdict only when strict", () => {
  const findings = [found("page.errors", "warn"), found("sdk.order", "pass")];
  expect(verdictOf(findings, false)).toBe("pass");
  expect(verdictOf(findings, true)).toBe("fail");
  expect(verdictOf([found("sdk.order", "fail")], false)).toBe("fail");
});
