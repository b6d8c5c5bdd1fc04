import { writeFileSync } from "node:fs";
import { playwrightTest } from "../browser/playwright.js";
import { PLAN_ENV } from "../schedule/plan.js";
import { lookAtSite, readLookPlan } from "./site-look.js";

/** `setup-audit init`'s look at a site, in the browser the runner launched; the CLI reads the result file. */
const plan = readLookPlan(process.env[PLAN_ENV]!);

playwrightTest().test("look at the site", async ({ browser }) => {
  writeFileSync(plan.resultFile, JSON.stringify(await lookAtSite(browser, plan)));
});
