import { expect, test } from "@playwright/test";
import { closestMatch, editDistance, nearMisses, wordsOf } from "../../src/text/wording.js";

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
  test("suggests the nearest candidate", () => {
    expect(closestMatch("sdk.ordr", ["sdk.key", "sdk.order"])).toBe("sdk.order");
  });

  test("allows an edit per four letters on long words", () => {
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

test.describe("nearMisses", () => {
  test("lists every close candidate once, closest first, never the word itself", () => {
    expect(
      nearMisses("signup_success", [
        "page_view",
        "signup_sucess",
        "Signup Success",
        "signup_success",
        "Signup Success",
      ]),
    ).toEqual(["Signup Success", "signup_sucess"]);
  });

  test("is what closestMatch picks from", () => {
    const candidates = ["sdk.key", "sdk.order", "sdk.orders"];
    expect(closestMatch("sdk.ordr", candidates)).toBe(nearMisses("sdk.ordr", candidates)[0]);
  });
});

test("a name's words are split at punctuation and camelCase, in lower case", () => {
  expect(wordsOf("data-writeKey")).toEqual(["data", "write", "key"]);
  expect(wordsOf("user_Email2Address")).toEqual(["user", "email2", "address"]);
  expect(wordsOf("--")).toEqual([]);
});
