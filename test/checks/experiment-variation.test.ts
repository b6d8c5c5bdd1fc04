import { expect, test } from "@playwright/test";
import { judgeVariation, type VariationUnit } from "../../src/checks/experiment-variation.js";

const target = { text: "Start your free trial", attributes: { id: "cta-primary", class: "button" }, style: { color: "rgb(0, 0, 0)", "font-size": "16px" }, box: { x: 10, y: 20, width: 200, height: 40 } };
const control: VariationUnit = { matched: 1, visible: 1, target, overflows: false, errors: [], events: ["cta_clicked", "signup_success"], journeyError: null };
const unitWith = (changes: Partial<VariationUnit>): VariationUnit => ({ ...control, target: { ...target, text: "Start now" }, ...changes });

test("a variation that changes the target and keeps the needed events passes", () => {
  expect(judgeVariation(control, unitWith({}), ["signup_success"])).toEqual({ status: "pass", reasons: [] });
});

test("a change to the style or the box alone is a visible change", () => {
  expect(judgeVariation(control, unitWith({ target: { ...target, style: { ...target.style, "font-size": "18px" } } }), []).status).toBe("pass");
  expect(judgeVariation(control, unitWith({ target: { ...target, box: { ...target.box, width: 240 } } }), []).status).toBe("pass");
});

test("js that throws fails, naming the error and its line", () => {
  expect(judgeVariation(control, unitWith({ errors: [{ message: "Cannot read properties of null (reading 'style')", line: 3 }] }), [])).toEqual({
    status: "fail",
    reasons: ["its js throws \"Cannot read properties of null (reading 'style')\" at line 3"],
  });
});

test("a selector that matches no visible element, or several, once applied fails", () => {
  expect(judgeVariation(control, unitWith({ visible: 0, target: null }), []).reasons).toEqual(["the selector matches no visible element once it is applied (1 matched)"]);
  expect(judgeVariation(control, unitWith({ matched: 2, visible: 2 }), []).reasons).toEqual(["the selector matches 2 visible elements once it is applied, so the change may land on the wrong one"]);
});

test("a variation that leaves the target as it was fails", () => {
  expect(judgeVariation(control, unitWith({ target }), [])).toEqual({ status: "fail", reasons: ["it changes nothing visible in the target: text, attributes, style and box are the control's"] });
});

test("a needed event the control fires and the variation does not fails; one the control does not fire either is left to the page's checks", () => {
  expect(judgeVariation(control, unitWith({ events: ["cta_clicked"] }), ["signup_success", "signup_success", "newsletter_joined"]).reasons).toEqual([
    "the journey no longer fires `signup_success`, which the control fires",
  ]);
  expect(judgeVariation(control, unitWith({ events: ["signup_success"] }), ["cta_clicked"]).status).toBe("fail");
  expect(judgeVariation(control, unitWith({ events: [] }), []).status).toBe("pass");
});

test("overflow warns only where the control does not overflow", () => {
  expect(judgeVariation(control, unitWith({ overflows: true }), [])).toEqual({ status: "warn", reasons: ["it makes the page wider than the viewport, which the control is not"] });
  expect(judgeVariation({ ...control, overflows: true }, unitWith({ overflows: true }), []).status).toBe("pass");
});

test("one verdict lists every reason, failures before the warning", () => {
  const verdict = judgeVariation(control, unitWith({ target, overflows: true, errors: [{ message: "boom", line: null }], events: [] }), ["signup_success"]);
  expect(verdict.status).toBe("fail");
  expect(verdict.reasons).toEqual([
    'its js throws "boom"',
    "it changes nothing visible in the target: text, attributes, style and box are the control's",
    "the journey no longer fires `signup_success`, which the control fires",
    "it makes the page wider than the viewport, which the control is not",
  ]);
});
