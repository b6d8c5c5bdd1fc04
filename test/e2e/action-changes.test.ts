import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { runCompositeAction } from "../support/composite-action.js";
import { projectEnv } from "../support/installed-package.js";
import { scratchDir } from "../support/scratch.js";

/**
 * The action's `fail-on` and `notify-env` inputs reach setup-audit as its flags: values it refuses
 * come back as its own usage errors (exit 2, verdict error), before any browser or page.
 */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

for (const [input, value, said] of [
  ["fail-on", "old", '--fail-on must be new or any, not "old"'],
  [
    "notify-env",
    "https://hooks.example.test/services/T0",
    "--notify-env takes the NAME of the variable that holds the webhook URL",
  ],
] as const) {
  test(`the action passes its ${input} input to setup-audit as --${input}`, async () => {
    const empty = scratchDir("setup-audit-action-inputs");
    try {
      const run = await runCompositeAction(ROOT, {
        workspace: empty,
        inputs: { [input]: value },
        env: projectEnv({ SETUP_AUDIT_BROWSER: join(empty, "no-browser") }),
      });
      expect(run.log).toContain(said);
      expect(run.outputs).toMatchObject({ verdict: "error", "exit-code": "2" });
      expect(run.failed).toEqual({ step: "Verdict", code: 2 });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
}
