import { expect, test } from "@playwright/test";
import { isPlanLike, maskedValue, maskProperties, redactUrl, scrubText } from "../../src/report/redact.js";

test("a masked value says what was there, never the value", () => {
  expect(maskedValue("jane.doe@example.org")).toBe("«masked string, 20 chars»");
  expect(maskedValue({ street: "Main St" })).toBe("«masked object»");
  expect(maskedValue(["a", "b"])).toBe("«masked list of 2»");
  expect(maskedValue(null)).toBe("«masked null»");
});

test("only numbers, booleans and short lower-case tokens count as plan-like", () => {
  for (const value of ["pro", "business", "free_trial", "tier-2", 42, true]) expect(isPlanLike(value), String(value)).toBe(true);
  for (const value of ["Jane", "jane.doe@example.org", "u_3f9a1c2b7d4e", "+33 6 12 34 56 78", "a".repeat(25), "user 12", "", "acct20240101", null, {}]) {
    expect(isPlanLike(value), JSON.stringify(value)).toBe(false);
  }
});

test("properties keep their keys; values are shown only when allowed, nested ones never", () => {
  const shown = maskProperties({ plan: "pro", contact: "jane.doe@example.org", address: { city: "Lyon" } }, (key) => key !== "contact");
  expect(shown).toEqual({ plan: "pro", contact: "«masked string, 20 chars»", address: { city: "Lyon" } });
  expect(maskProperties({ address: { city: "Lyon" } }, (_key, value) => isPlanLike(value))).toEqual({ address: "«masked object»" });
  expect(maskProperties("jane.doe@example.org", () => true)).toBe("«masked string, 20 chars»");
  expect(maskProperties(undefined, () => true)).toBeNull();
});

test("URLs lose their query values, fragment and credentials, but keep the project keys", () => {
  expect(redactUrl("https://user:pw@shop.example.test/signup?email=jane%40example.org&key=prj_demo_staging#token", new Set(["prj_demo_staging"]))).toBe(
    "https://shop.example.test/signup?email=…&key=prj_demo_staging#…",
  );
  expect(redactUrl("not a url")).toBe("«masked string, 9 chars»");
});

test("free text loses e-mail addresses and the given secrets", () => {
  expect(scrubText("TypeError for jane.doe@example.org with key test-api-key", ["test-api-key"])).toBe("TypeError for «email» with key «redacted»");
  expect(scrubText("GET /search?q=qa%2Bplan%40example.test failed", ["qa+plan@example.test"])).toBe("GET /search?q=«redacted» failed");
  expect(scrubText('track("signup") and identify("u_3f9a1c2b7d4e") were never delivered', [])).toBe('track("signup") and identify(«user id») were never delivered');
  // Short secrets would blank out ordinary words.
  expect(scrubText("plan pro", ["pro"])).toBe("plan pro");
});
