import { expect, test } from "@playwright/test";
import { goalsMatch } from "../../src/checks/goals/match.js";
import { callWith, contextOf, pageWith } from "../support/artifacts.js";

test.describe("goals.match", () => {
  test("passes per viewport where the exact event fired", () => {
    const findings = goalsMatch.evaluate(
      contextOf([
        pageWith({ page: "signup", calls: [callWith()] }),
        pageWith({ page: "signup", viewport: "mobile", mobile: true, calls: [callWith()] }),
      ]),
    );
    expect(findings.map((finding) => [finding.goal, finding.viewport, finding.status])).toEqual([
      ["Signup completed", "desktop", "pass"],
      ["Signup completed", "mobile", "pass"],
    ]);
  });

  test("fails on a near miss and names the event that fired", () => {
    const [finding] = goalsMatch.evaluate(
      contextOf([pageWith({ page: "near-miss", calls: [callWith({ name: "Signup Success" })] })]),
    );
    expect(finding).toMatchObject({ status: "fail", goal: "Signup completed", page: null });
    expect(finding?.message).toContain("`Signup Success` (on near-miss) — did you mean it?");
    expect(finding?.evidence.nearMisses).toEqual(["Signup Success"]);
  });

  test("a goal's event lost before the SDK existed does not meet it; the near miss the page made is named", () => {
    const calls = [callWith({ state: "lost" }), callWith({ name: "Signup Success" })];
    const [finding] = goalsMatch.evaluate(contextOf([pageWith({ page: "signup", calls })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("the pages fire `Signup Success` (on signup) — did you mean it?");
  });

  test("fails without a suggestion when nothing close fired", () => {
    const [finding] = goalsMatch.evaluate(contextOf([pageWith({ calls: [callWith({ name: "page_view" })] })]));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).not.toContain("did you mean");
  });

  test("does not count an identify whose user id equals the event", () => {
    const [finding] = goalsMatch.evaluate(contextOf([pageWith({ calls: [callWith({ kind: "identify" })] })]));
    expect(finding?.status).toBe("fail");
  });

  test("gives nothing for a spec without goals", () => {
    expect(goalsMatch.evaluate(contextOf([pageWith()], { ...contextOf([]).spec, goals: [] }))).toEqual([]);
  });
});
