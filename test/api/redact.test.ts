import { expect, test } from "@playwright/test";
import { redactDeep, redactSecret } from "../../src/api/redact.js";

const KEY = "sk/live+9f8e";

test("every occurrence of the key, plain or URL-encoded, is redacted", () => {
  expect(redactSecret(`key ${KEY} and ${encodeURIComponent(KEY)} again ${KEY}`, KEY)).toBe("key [redacted] and [redacted] again [redacted]");
  expect(redactSecret("nothing to hide", KEY)).toBe("nothing to hide");
  expect(redactSecret("an empty key hides nothing", "")).toBe("an empty key hides nothing");
});

test("a deep copy is redacted in every string and key, other values kept", () => {
  const value = { url: `http://x/?k=${KEY}`, list: [KEY, 3, null, { [KEY]: true }], count: 2 };
  expect(redactDeep(value, KEY)).toEqual({ url: "http://x/?k=[redacted]", list: ["[redacted]", 3, null, { "[redacted]": true }], count: 2 });
  expect(value.list[0]).toBe(KEY);
});
