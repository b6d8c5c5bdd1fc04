import { identifyAttributes } from "./attributes.js";
import { identifyPii } from "./pii.js";

/** The `identify.*` checks, in the order the report shows them. */
export const IDENTIFY_CHECKS = [identifyAttributes, identifyPii] as const;
