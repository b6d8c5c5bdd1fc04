import { expect, test } from "@playwright/test";
import { closestMatch, editDistance } from "../src/text.js";

test.describe("editDistance", () => {
  test("counts a swap of neighbours as one edit", () => {
    expect(editDistance("pgaes", "pages")).toBe(1);
    expect(editDistance("glboal", "global")).toBe(1);
  });

  test("counts insertions, deletions and substitutions", () => {
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("clik", "click")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });
});

test.describe("closestMatch", () => {
  test("suggests the nearest candidate within two edits", () => {
    expect(closestMatch("sdk.ordr", ["sdk.key", "sdk.order"])).toBe("sdk.order");
  });

  test("allows a third of the length on long words", () => {
    expect(closestMatch("deliveryTimoutMillis", ["deliveryTimeoutMs"])).toBe("deliveryTimeoutMs");
    expect(closestMatch("deliveryWindow", ["deliveryTimeoutMs"])).toBeUndefined();
    expect(closestMatch("recentEvntPth", ["recentEventsPath"])).toBe("recentEventsPath");
  });

  test("ignores case and separators", () => {
    expect(closestMatch("delivery_timeout_ms", ["deliveryTimeoutMs"])).toBe("deliveryTimeoutMs");
    expect(closestMatch("BASEURL", ["baseUrl", "keyEnv"])).toBe("baseUrl");
  });

  test("does not turn a short word into an unrelated one", () => {
    expect(closestMatch("xy", ["id"])).toBeUndefined();
    expect(closestMatch("owner", ["workspace", "project", "pages"])).toBeUndefined();
  });
});
