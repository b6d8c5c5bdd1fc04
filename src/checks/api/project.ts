import { findProject, serviceProjectKey } from "../../api/match.js";
import type { ApiProject } from "../../artifacts/types.js";
import type { Judgement } from "../../findings/finding.js";
import { nearMisses, orList } from "../../text/wording.js";
import { defineCheck, specWideFinding, type AuditContext, type Verdict } from "../check.js";
import { failedExchange, judgeableApi, keyField, projectLabel, wantedProjectOf } from "./answers.js";

/** api.project: the environment's key or domain is among the projects the service lists. */
export const apiProject = defineCheck({
  id: "api.project",
  scope: "run",
  title: "The service lists the environment's project",
  failureTitle: "The service does not list the environment's project",
  family: "API",
  severity: "critical",
  failsWhen:
    "the project list could not be read (the cause, the attempts and the time are named), or neither the " +
    "environment's key nor its domain is in it (near misses named); **warn** when the domain is listed " +
    "under another key, **fail** when that key is another environment's",
  why:
    "A key the service does not know, or the production key on staging, sends every event to a " +
    "project nobody looks at — or mixes test traffic into real results.",
  requires: ["api"],
  evaluate(context): Judgement[] {
    const judgeable = judgeableApi(context);
    if ("blocked" in judgeable) return specWideFinding(context, { status: "skip", message: judgeable.blocked });
    const exchange = judgeable.projects;
    if (exchange.data === null) {
      return specWideFinding(context, failedExchange(exchange, "the project list", "api.baseUrl"));
    }
    return specWideFinding(context, judgeProject(context, exchange.data));
  },
});

function judgeProject(context: AuditContext, projects: readonly ApiProject[]): Verdict {
  const wanted = wantedProjectOf(context);
  const env = context.environment;
  const match = findProject(projects, wanted);
  if (match === null) {
    const keys = projects.flatMap((project) => project.keys);
    const close = nearMisses(wanted.key, keys);
    const hint = close.length > 0 ? ` — did you mean ${orList(close)}?` : "";
    return {
      status: "fail",
      message:
        `Neither the key \`${wanted.key}\` nor the domain \`${wanted.domain}\` of environment ${env} is among the ${projects.length} project(s) the service lists${hint} ` +
        `Fix ${keyField(context)} (or its domain), or use an API key of the workspace that holds the project.`,
      evidence: { key: wanted.key, domain: wanted.domain, listed: projects.length, nearMisses: close },
    };
  }
  const label = projectLabel(match);
  const evidence = { key: wanted.key, domain: wanted.domain, index: match.index, field: match.field, project: label };
  if (match.byKey)
    return {
      status: "pass",
      message: `The service lists the project: ${label} has ${match.field} \`${wanted.key}\`.`,
      evidence,
    };
  const listedKeys = match.element.keys;
  const otherEnv = Object.entries(context.spec.environments).find(
    ([name, other]) => name !== env && listedKeys.includes(serviceProjectKey(other)),
  );
  if (otherEnv) {
    return {
      status: "fail",
      message:
        `The service lists the domain \`${wanted.domain}\` under \`${serviceProjectKey(otherEnv[1])}\`, the spec's ${otherEnv[0]} key, while environment ${env} uses \`${wanted.key}\`: ` +
        `staging and production are mixed up. Fix ${keyField(context)} or environments.${otherEnv[0]}.domain.`,
      evidence,
    };
  }
  if (listedKeys.length > 0) {
    return {
      status: "warn",
      message: `The service lists the domain \`${wanted.domain}\` (${label}), but under the key ${orList(listedKeys)}, not \`${wanted.key}\`. If that is this environment's project, fix ${keyField(context)}.`,
      evidence,
    };
  }
  return {
    status: "pass",
    message: `The service lists the project by its domain: ${label} has ${match.field} \`${wanted.domain}\`.`,
    evidence,
  };
}
