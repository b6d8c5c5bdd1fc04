import { expect, test } from "@playwright/test";
import { verdictOf } from "../../src/results/summary.js";
import { worstStatus, type Finding } from "../../src/findings/finding.js";
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

test("warnings fail the verdict only when strict", () => {
  const findings = [found("page.errors", "warn"), found("sdk.order", "pass")];
  expect(verdictOf(findings, false)).toBe("pass");
  expect(verdictOf(findings, true)).toBe("fail");
  expect(verdictOf([found("sdk.order", "fail")], false)).toBe("fail");
});
