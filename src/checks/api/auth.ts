import type { Judgement } from "../../findings/finding.js";
import { defineCheck, specWideFinding } from "../check.js";
import { needed } from "../inputs.js";
import { exchangeEvidence } from "./answers.js";

/** api.auth: the service accepts the key named by `api.keyEnv`. */
export const apiAuth = defineCheck({
  id: "api.auth",
  scope: "run",
  title: "The service accepts the API key",
  failureTitle: "The API key is missing or refused",
  family: "API",
  severity: "blocker",
  failsWhen:
    "`api` is configured and the variable `api.keyEnv` names is unset or empty, or the service refuses " +
    "the key (401, 403)",
  why:
    "Without a valid key the service's own view of the project — its workspace, key and goal " +
    "conditions — cannot be compared with the site, and every number-trusting check rests on guesses.",
  requires: ["api"],
  evaluate(context): Judgement[] {
    const api = needed(context, "api");
    if (!api.keySet || api.projects === null) {
      return specWideFinding(context, {
        status: "fail",
        message: `No API key: set ${api.keyEnv} to the service's API key (the spec's api.keyEnv names that variable). The other API checks were skipped.`,
        evidence: { keyEnv: api.keyEnv },
      });
    }
    const exchange = api.projects;
    const evidence = { keyEnv: api.keyEnv, ...exchangeEvidence(exchange) };
    const { failure } = exchange;
    if (failure?.status === 401) {
      const message = `The service rejected the key in ${api.keyEnv} (GET ${exchange.url}: ${failure.detail}). Set ${api.keyEnv} to a valid API key of workspace "${context.spec.workspace}".`;
      return specWideFinding(context, { status: "fail", message, evidence });
    }
    if (failure?.status === 403) {
      const message = `The service knows the key in ${api.keyEnv} but refused it the project list (GET ${exchange.url}: ${failure.detail}). Use a key with access to workspace "${context.spec.workspace}".`;
      return specWideFinding(context, { status: "fail", message, evidence });
    }
    if (exchange.status !== null && exchange.status >= 200 && exchange.status < 300) {
      return specWideFinding(context, {
        status: "pass",
        message: `The service accepted the key in ${api.keyEnv}.`,
        evidence,
      });
    }
    return specWideFinding(context, {
      status: "skip",
      message: "Not judged: the service gave no answer that tells whether the key is valid (see api.project).",
      evidence,
    });
  },
});
