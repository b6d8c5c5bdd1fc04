import { pageAccess } from "./access.js";
import { pageDomain } from "./domain.js";
import { pageErrors } from "./errors.js";
import { pageLoad } from "./load.js";

/** The `page.*` checks, in the order the report shows them. */
export const PAGE_CHECKS = [pageLoad, pageAccess, pageDomain, pageErrors] as const;
