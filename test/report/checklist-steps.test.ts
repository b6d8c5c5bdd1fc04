import { expect, test } from "@playwright/test";
import { CHECKLIST_SOURCES, rollUpChecklist } from "../../src/results/checklist.js";
import { CHECKS } from "../../src/checks/index.js";
import { type Checklist, type CheckId, FAMILIES, type Finding } from "../../src/findings/finding.js";
import { checklistSteps } from "../../src/report/checklist-steps.js";
import { failedFamilies, FAMILY_LABEL, reportCategories } from "../../src/report/families.js";
import { severityOf } from "../../src/report/severity.js";
import { findingWith } from "../support/artifacts.js";

const found = (check: CheckId, status: Finding["status"], where: Partial<Finding> = {}): Finding =>
  findingWith({
    check,
    status,
    spec: "s.yaml",
    ...where,
  });

test("the checklist rolls up the checks that feed each item", () => {
  const checklist = rollUpChecklist([
    found("goals.match", "fail"),
    found("events.expected", "pass"),
    found("viewports.coverage", "pass"),
    found("events.delivered", "warn"),
    found("sdk.order", "fail"),
  ]);
  expect(checklist).toEqual({
    workspace: "skip",
    projectKeyOrDomain: "skip",
    goalEventMatch: "fail",
    mobileAndDesktop: "pass",
    noWarnings: "warn",
  });
});

test("each checklist item is still fed by the checks the contract names; new ones may join", () => {
  const contract: Record<keyof Checklist, CheckId[]> = {
    workspace: ["api.auth", "api.workspace"],
    projectKeyOrDomain: ["api.project", "sdk.key", "page.domain"],
    goalEventMatch: ["goals.match", "api.goals", "events.expected"],
    mobileAndDesktop: ["viewports.coverage"],
    noWarnings: ["events.delivered", "report.warnings"],
  };
  for (const [item, checks] of Object.entries(contract) as [keyof Checklist, CheckId[]][]) {
    expect(CHECKLIST_SOURCES[item], item).toEqual(expect.arrayContaining(checks));
  }
});

/** The checks that feed an item, as a checklist step names them. */
const feeding = (item: keyof Checklist) => CHECKLIST_SOURCES[item].join(", ");

test("the checklist has the five items in the service's words, each saying which findings decided it", () => {
  const steps = checklistSteps([
    found("goals.match", "fail", { goal: "Signup completed", viewport: "mobile" }),
    found("events.expected", "fail", { page: "signup", viewport: "desktop" }),
    found("events.expected", "pass", { page: "home", viewport: "desktop" }),
    found("viewports.coverage", "pass"),
    found("events.delivered", "warn", { page: "cart", viewport: "mobile" }),
    found("page.domain", "skip", { page: "home", viewport: "desktop" }),
  ]);
  expect(steps).toEqual([
    {
      item: "workspace",
      label: "Correct workspace",
      status: "skip",
      message: `Not checked in this run: none of ${feeding("workspace")} gave a finding.`,
    },
    {
      item: "projectKeyOrDomain",
      label: "Correct project key or domain",
      status: "skip",
      message: `Not checked: every finding of ${feeding("projectKeyOrDomain")} was skipped.`,
    },
    {
      item: "goalEventMatch",
      label: "Goals and events match",
      status: "fail",
      message: "2 failed: goals.match [Signup completed · mobile], events.expected [signup · desktop].",
    },
    {
      item: "mobileAndDesktop",
      label: "Mobile and desktop both checked",
      status: "pass",
      message: `All 1 finding(s) of ${feeding("mobileAndDesktop")} passed.`,
    },
    {
      item: "noWarnings",
      label: "No bot/SRM or dropped-event warning",
      status: "warn",
      message: "1 warned: events.delivered [cart · mobile].",
    },
  ]);
});

test("a checklist item names four problems, then counts the rest", () => {
  const failures = ["a", "b", "c", "d", "e", "f"].map((page) =>
    found("events.expected", "fail", { page, viewport: "desktop" }),
  );
  expect(checklistSteps(failures)[2]!.message).toBe(
    "6 failed: events.expected [a · desktop], events.expected [b · desktop], events.expected [c · desktop], events.expected [d · desktop] and 2 more.",
  );
});

test("every check id belongs to a family, and a result is filed under its failed families in filing order", () => {
  expect(CHECKS.filter((check) => !FAMILIES.includes(check.family)).map((check) => check.id)).toEqual([]);
  expect(
    failedFamilies([
      found("events.delivered", "fail"),
      found("sdk.order", "fail"),
      found("sdk.present", "fail"),
      found("goals.match", "warn"),
    ]),
  ).toEqual(["SDK installation and load order", "Delivery"]);
  expect(failedFamilies([found("sdk.order", "warn"), found("page.load", "pass")])).toEqual([]);
});

test("the categories put a failed checklist first, then one family each, matching failed results only", () => {
  const categories = reportCategories("Setup checklist");
  expect(categories.map((category) => category.name)).toEqual([
    "Setup cannot be trusted yet",
    "SDK installation and load order",
    "Goal/event mismatch",
    "Delivery",
    "Personal data",
    "Tracking plan",
    "Experiments",
    "API",
    "Pages and viewports",
  ]);
  expect(categories[0]!.matchers).toEqual({ statuses: ["failed"], labels: { story: "^Setup checklist$" } });
  expect(categories[2]!.matchers).toEqual({
    statuses: ["failed"],
    labels: { [FAMILY_LABEL]: "^Goal\\/event mismatch$" },
  });
});

test("a result's severity is that of its most severe failed or warning check", () => {
  expect(severityOf([found("page.errors", "warn"), found("sdk.order", "fail"), found("page.load", "pass")])).toBe(
    "critical",
  );
  expect(severityOf([found("page.errors", "warn"), found("experiment.name", "warn")])).toBe("minor");
  expect(severityOf([found("page.load", "fail")])).toBe("blocker");
  expect(severityOf([found("page.load", "pass"), found("sdk.order", "skip")])).toBeNull();
});
