import { expect, test } from "@playwright/test";
import { callAt, callerLocation } from "../../src/gather/lost-calls.js";

const stack = [
  "Error",
  "    at Object.get [as expsvc] (<anonymous>:57:62)",
  "    at http://127.0.0.1:47413/early-call:21:7",
].join("\n");

test("the caller is the frame after the getter", () => {
  expect(callerLocation(stack)).toEqual({ url: "http://127.0.0.1:47413/early-call", line: 21, column: 7 });
  expect(callerLocation("Error\n    at get (<anonymous>:1:1)\n    at foo (http://x.test/a.js:3:14)")).toEqual({
    url: "http://x.test/a.js",
    line: 3,
    column: 14,
  });
  expect(callerLocation("Error\n    at get (<anonymous>:1:1)")).toBeNull();
});

test("recovers the method and event name at the location", () => {
  const source = ["<script>", '      expsvc.track("page_viewed_early", { a: 1 });', "</script>"].join("\n");
  expect(callAt(source, { line: 2, column: 7 }, "expsvc", ["track", "identify"])).toEqual({
    method: "track",
    name: "page_viewed_early",
  });
});

test("accepts window., optional chaining and single quotes", () => {
  const source = "if (ok) { window.expsvc?.identify('u_1', {}) }";
  expect(callAt(source, { line: 1, column: 11 }, "expsvc", ["track", "identify"])).toEqual({
    method: "identify",
    name: "u_1",
  });
});

test("a guarded read is not a call", () => {
  expect(callAt("window.expsvc = window.expsvc || [];", { line: 1, column: 17 }, "expsvc", ["track"])).toBeNull();
  expect(callAt("if (window.expsvc) { expsvc.track('x') }", { line: 1, column: 5 }, "expsvc", ["track"])).toBeNull();
});

test("a call with a computed name is lost without a name", () => {
  expect(callAt("expsvc.track(eventName)", { line: 1, column: 1 }, "expsvc", ["track"])).toEqual({
    method: "track",
    name: null,
  });
});
