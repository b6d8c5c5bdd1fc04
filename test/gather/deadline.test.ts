import { expect, test } from "@playwright/test";
import { withDeadline } from "../../src/gather/deadline.js";

test("work that answers in time gives its value", async () => {
  await expect(withDeadline(Promise.resolve("png"), 1_000, "too slow")).resolves.toBe("png");
});

test("work that fails in time gives its own error", async () => {
  await expect(withDeadline(Promise.reject(new Error("closed")), 1_000, "too slow")).rejects.toThrow("closed");
});

test("work that never answers is given up with the deadline's message", async () => {
  await expect(withDeadline(new Promise<string>(() => undefined), 20, "the capture did not answer")).rejects.toThrow(
    "the capture did not answer",
  );
});
