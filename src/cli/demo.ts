import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { closeServers, FIXTURE_API_KEY, startDemo } from "../../fixtures/demo.js";
import { PACKAGE_ROOT } from "../package/package-root.js";
import { REPORT_PATHS } from "../report/html.js";
import { COMPARE_WITH_HISTORY } from "./changes.js";
import { CliError, EXIT } from "../runner/errors.js";
import { runAudit } from "./run.js";
import { loadValidSpecs } from "./specs.js";

/** The demo's spec, shipped in the package: the demo shop, set up correctly. */
const DEMO_SPEC = join(PACKAGE_ROOT, "audits/demo-shop.yaml");

/**
 * `setup-audit demo`: starts the bundled demo shop and mock service on free ports of this
 * machine, audits the shop on both viewports against the mock with the key it accepts (no
 * account, no internet), writes the shareable report, and stops them. The spec's URLs name the
 * ports the repository's tests use; the run audits the ports actually taken instead.
 */
export async function runDemo(options: { out: string }): Promise<number> {
  const spec = relative(process.cwd(), DEMO_SPEC);
  const [loaded] = await loadValidSpecs([spec]);
  const demo = await startDemo("127.0.0.1", { service: 0, demoShop: 0 }).catch((error: unknown) => {
    throw new CliError(
      EXIT.couldNotRun,
      `Could not start the demo shop and the mock service: ${(error as Error).message}`,
      "Check that this machine lets programs listen on 127.0.0.1, then run the demo again.",
    );
  });
  try {
    process.stdout.write(
      `Started the demo shop at ${demo.urls.demoShop} and the mock service at ${demo.urls.service}, on this machine only, for this run.\n`,
    );
    // The mock accepts one key, and the demo audits nothing else: a key set in the shell is for another service.
    if (loaded?.spec.api) process.env[loaded.spec.api.keyEnv] = FIXTURE_API_KEY;
    const code = await runAudit({
      specs: [spec],
      env: undefined,
      viewports: [],
      pages: [],
      baseUrl: demo.urls.demoShop,
      apiBaseUrl: demo.urls.service,
      changes: COMPARE_WITH_HISTORY,
      workers: undefined,
      shard: undefined,
      strict: false,
      out: options.out,
      trace: false,
      saveArtifacts: false,
      singleFile: true,
      open: false,
      html: true,
      browserEndpoint: undefined,
      baseline: null,
    });
    const report = join(options.out, REPORT_PATHS.singleFile);
    if (existsSync(report)) process.stdout.write(`\nThe demo's report: ${report} (open it in any browser).\n`);
    process.stdout.write("Next: `setup-audit init https://your-site` writes a spec for your own site.\n");
    return code;
  } finally {
    await closeServers(demo.servers);
  }
}
