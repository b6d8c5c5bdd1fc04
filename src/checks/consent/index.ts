import { consentBanner } from "./banner.js";
import { consentBefore } from "./before.js";
import { consentReject } from "./reject.js";

/**
 * The consent checks (docs/consent.md): each judges the `consent` artifacts of the units the
 * spec's `consent` section adds. Without the section, no page has them and they give no finding.
 */

/** The consent checks, in report order. */
export const CONSENT_CHECKS = [consentBanner, consentBefore, consentReject] as const;
