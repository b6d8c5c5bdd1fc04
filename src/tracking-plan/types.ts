/** One way a call's properties (or an identify's attributes) break the plan's JSON Schema, as plain data. */
export interface PlanViolation {
  /** JSON pointer of the property at fault (`/order_id` for a missing required key, `/coupon` for a forbidden one); "" for the whole object. */
  pointer: string;
  /** The JSON Schema keyword broken: `required`, `type`, `enum`, `additionalProperties`, `pattern`, `minimum`, … */
  rule: string;
  /** What the plan expects, in words: `a number`, `one of "USD", "EUR"`, `no key but order_id, revenue`. */
  expected: string;
  /** The JSON type of the value sent (`string`, `number`, `object`, `array`, `null`), or `missing`. */
  type: string;
  /** The value sent; undefined when missing. The checks show it only when it is plan-like. */
  value?: unknown;
}

/** The formats a plan is read from. */
export type TrackingPlanFormat = "setup-audit" | "segment" | "rudderstack";

/** A tracking plan read and compiled: its planned names and its validators, shared by every page of a run. */
export interface TrackingPlan {
  /** The file or folder it was read from. */
  file: string;
  /** The format it was read as. */
  format: TrackingPlanFormat;
  /** The planned track events' names, in the plan's order. */
  events: readonly string[];
  /** True when the plan has a schema for identify-kind attributes. */
  hasIdentify: boolean;
  /** The violations of a track's properties (`{}` when it has none); null when the event is not planned. */
  validateTrack(name: string, properties: unknown): PlanViolation[] | null;
  /** The violations of identify-kind attributes; null when the plan has no identify schema. */
  validateIdentify(attributes: unknown): PlanViolation[] | null;
}
