import { sdkKey } from "./key.js";
import { sdkOrder } from "./order.js";
import { sdkPresent } from "./present.js";

/** The `sdk.*` checks, in the order the report shows them. */
export const SDK_CHECKS = [sdkPresent, sdkOrder, sdkKey] as const;
