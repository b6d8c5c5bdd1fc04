import type { VisitorSignals } from "../artifacts/types.js";
import { PRESETS } from "../vendors/presets.js";
import type { BotFilter } from "../vendors/vendor.js";
import type { SdkSpec } from "../audit-spec/schema.js";

/**
 * Whether an SDK's bot filter explains calls that never left the page, judged on how the page saw
 * its browser: the preset's filter when the spec names one, else the signs of automation that
 * SDKs' filters commonly read.
 */

/** A cause of calls dropped as a bot's: what in the browser gave it away, and what to do. */
export interface BotFilterCause {
  /** What the page saw that the filter takes for a bot's (`navigator.webdriver` true, a part of the user agent). */
  sign: string;
  /** The finding's advice, naming the SDK's setting when it has one. */
  advice: string;
}

/** Why the SDK may have dropped the page's calls as a bot's; null when nothing the page saw of its browser says so. */
export function botFilterCause(
  sdk: Pick<SdkSpec, "preset">,
  visitor: VisitorSignals | null | undefined,
): BotFilterCause | null {
  if (!visitor) return null;
  if (sdk.preset !== null) {
    const preset = PRESETS[sdk.preset];
    const found = preset.botFilter === null ? null : filteredBy(preset.botFilter, visitor);
    if (found === null) return null;
    const setting = preset.botFilter!.setting;
    const keep = setting === null ? "no setting of the SDK keeps them" : `set ${setting} where the audit runs`;
    return {
      sign: found.sign,
      advice: `${preset.vendor} drops the calls of a browser it takes for a bot's, and took the audit's for one (${found.sign}): ${keep}, or ${found.fix}`,
    };
  }
  const found = automationSign(visitor);
  if (found === null) return null;
  return {
    sign: found.sign,
    advice: `The page's browser looked automated (${found.sign}), and SDKs with a bot filter drop such calls: ${found.fix}, or turn the SDK's bot filter off where the audit runs`,
  };
}

/** The sign the filter reads and what removes it; null when the filter passes the browser. */
function filteredBy(filter: BotFilter, visitor: VisitorSignals): { sign: string; fix: string } | null {
  if (filter.webdriver && visitor.webdriver) return WEBDRIVER;
  const part = filter.userAgent.find((text) => visitor.userAgent.toLowerCase().includes(text));
  return part === undefined ? null : userAgentSign(part, visitor.userAgent);
}

/** The signs of automation an SDK's filter commonly reads: `navigator.webdriver`, a headless browser's user agent. */
function automationSign(visitor: VisitorSignals): { sign: string; fix: string } | null {
  if (visitor.webdriver) return WEBDRIVER;
  const headless = /headless\w*/i.exec(visitor.userAgent);
  return headless === null ? null : userAgentSign(headless[0], visitor.userAgent);
}

const WEBDRIVER = {
  sign: "navigator.webdriver was true",
  fix: "audit with a browser that presents itself as a visitor's (the audit's own does, and a browser server's contexts are made to)",
};

function userAgentSign(part: string, userAgent: string): { sign: string; fix: string } {
  return {
    sign: `its user agent \`${userAgent}\` has \`${part}\``,
    fix: `keep \`${part}\` out of the audit's user agent (its suffix is traffic.userAgentSuffix)`,
  };
}
