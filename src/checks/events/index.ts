import { eventsDelivered } from "./delivered.js";
import { eventsExpected } from "./expected.js";

/** The `events.*` checks, in the order the report shows them. */
export const EVENTS_CHECKS = [eventsExpected, eventsDelivered] as const;
