import { expect } from "@playwright/test";
import { KEYS, SDKS, VENDORS } from "../../fixtures/vendors/manifest.js";
import { chooseKey } from "../../src/init/key-discovery.js";
import { lookAtSite, type LookPlan } from "../../src/init/site-look.js";
import { test } from "../support/browser.js";

/**
 * Init's look at a site, in the visitor's browser init launches, on every install of each real
 * vendor SDK the bundled vendor site serves: the preset it names and the key it installs. The
 * command around it (the spec it writes, and a run of that spec) is proven end to end on each
 * vendor's snippet page in test/e2e/init.test.ts.
 */

function lookPlan(url: string): LookPlan {
  return {
    url,
    crawl: 1,
    environment: "production",
    file: "audits/site.yaml",
    basic: null,
  };
}

for (const vendor of VENDORS) {
  const { preset, installs } = SDKS[vendor];
  test(`${vendor}: the look names the ${preset} preset and the staging key on every install`, async ({
    visitorBrowser,
    fixtures,
  }) => {
    // Each look waits out its time for a consent banner: the installs' looks run side by side, each
    // in a context of the one browser, and took past 30 s beside the suite's audits: triple time.
    test.slow();
    const looks = await Promise.all(
      installs.map((install) =>
        lookAtSite(visitorBrowser, lookPlan(`${fixtures.urls.vendors}/${vendor}/${install}/correct`)),
      ),
    );
    for (const [index, look] of looks.entries()) {
      const install = installs[index]!;
      if (!look.ok) throw new Error(`${install}: ${look.message}`);
      expect(look.preset, install).toBe(preset);
      expect(chooseKey(look.artifacts).installed?.key, install).toBe(KEYS[vendor].staging);
    }
  });
}
