import { eventsDelivered } from "./delivered.js";
import { eventsDuplicate } from "./duplicate.js";
import { eventsExpected } from "./expected.js";
import { eventsPageviews } from "./pageviews.js";

/** The `events.*` checks, in the order the report shows them. */
export const EVENTS_CHECKS = [eventsExpected, eventsDelivered, eventsPageviews, eventsDuplicate] as const;
