import { leavesDomain } from "../../url/domain.js";
import { shareableUrl } from "../../privacy/redact.js";
import type { Judgement } from "../../findings/finding.js";
import { auditedEnvironment, defineCheck, finding, notOpenedReason, OPENED_PAGE } from "../check.js";
/** page.domain: every URL a page went through, after redirects and journey steps, stays on the domain. */
export const pageDomain = defineCheck({
  id: "page.domain",
  scope: "page",
  title: "The page stays on the project's domain",
  failureTitle: "The page leaves the project's domain",
  family: "Pages and viewports",
  severity: "critical",
  requires: [...OPENED_PAGE, "requestedUrl", "navigations", "finalUrl"],
  failsWhen:
    "the page, after redirects and journey steps, went to a URL off the environment's domain (the URL is " +
    "named, without its query); every URL the main frame was sent to counts, a redirect whose target then " +
    "failed to load too",
  why:
    "The project is bound to its domain: a redirect or journey step that lands on another host audits " +
    "(and, for visitors, tracks) a site the experiment does not cover, and an audit must never wander " +
    "off to hosts nobody asked it to visit.",
  evaluate(context): Judgement[] {
    const { domain } = context;
    // Not perLoadedPage: a redirect off the domain is a finding even when the page it led to failed.
    return context.pages.map((page) => {
      const scope = { page: page.page, viewport: page.viewport };
      const visited = [
        ...new Set([page.requestedUrl, ...page.navigations, ...(page.finalUrl === null ? [] : [page.finalUrl])]),
      ];
      const left = visited.filter((url) => leavesDomain(url, domain)).map(shareableUrl);
      if (left.length > 0) {
        const others = left.length > 1 ? ` (and ${left.length - 1} more)` : "";
        return finding(
          context,
          "fail",
          `On ${page.viewport}, the page left ${domain} for ${left[0]}${others}. Keep redirects and the journey's links on ${domain} or its subdomains.`,
          scope,
          { domain, left },
        );
      }
      const notJudged = notOpenedReason(page, auditedEnvironment(context).auth);
      if (notJudged !== null) return finding(context, "skip", notJudged, scope);
      return finding(
        context,
        "pass",
        `All ${visited.length} URL(s) the page went through stayed on ${domain}.`,
        scope,
        { domain, visited: visited.map(shareableUrl) },
      );
    });
  },
});
