import { sentAtMs, type JudgedCall, type JudgedPage } from "../artifacts/delivery.js";
import type { ConsentArtifacts } from "../artifacts/types.js";
import { hideSecretsDeep, isPlanLike, maskProperties, redactUrl, scrubText } from "../privacy/redact.js";
import type { ReportTarget } from "../results/run-result.js";

/**
 * The evidence attached to one page × viewport in the report: what the page called, what went
 * over the wire, and what broke. Everything is served as JSON, never as HTML, and masked first.
 */

/** One attachment, ready to hand to Allure. */
export interface PageAttachment {
  /** The name the report lists it under. */
  name: string;
  /** Always JSON: the report shows it as text, never renders it. */
  contentType: "application/json";
  /** The JSON text, masked. */
  body: string;
}

/** What may be shown: the spec's environment keys in URLs and its required attributes' values, and what must be scrubbed from text. */
export interface RedactionContext extends Pick<ReportTarget, "keys" | "requiredAttributes"> {
  /** Values never to print: the API key, the journey's typed values. */
  secrets: readonly string[];
}

/** The attachments of one page × viewport, in the order the report lists them; its calls with their deliveries, as summary.json reports them. */
export function pageAttachments(page: JudgedPage, context: RedactionContext): PageAttachment[] {
  const json = (name: string, value: unknown) => jsonAttachment(name, value, context.secrets);
  const attachments = [
    json("captured calls", capturedCalls(page.calls, context)),
    json("SDK and collect network log", networkLog(page, context)),
  ];
  if (page.errors.length > 0) {
    attachments.push(json("page errors", pageErrors(page, context)));
  }
  if (page.consent !== undefined && page.consent.unit === "page")
    attachments.push(json("before consent", beforeConsent(page, page.consent, context)));
  return attachments;
}

/**
 * What the page did before consent was given, for a privacy reviewer: the banner and its answer,
 * the calls made and the requests sent before it (collect requests and known trackers marked, and
 * how many the log left out), and the cookies and storage written and present then. Names only,
 * never a stored value. Without an answer, all of what the unit did.
 */
function beforeConsent(page: JudgedPage, consent: ConsentArtifacts, context: RedactionContext) {
  const keys = new Set(context.keys);
  const until = consent.answeredAtMs ?? Infinity;
  const collectUrls = new Set(page.collect.map((request) => request.url));
  const answer =
    consent.answeredAtMs === null
      ? consent.bannerAtMs === null
        ? `no banner within ${consent.timeoutMs} ms: consent was never given`
        : "the banner showed but was never answered"
      : consent.answerError === null
        ? `accepted at ${consent.answeredAtMs} ms`
        : `could not be accepted: ${scrubText(consent.answerError, context.secrets)}`;
  return {
    banner: {
      consentManager: consent.cmp,
      shownAtMs: consent.bannerAtMs,
      answeredWith: consent.method === "auto" ? "the rules (auto)" : "the spec's selector or steps",
    },
    consent: answer,
    calls: page.calls
      .filter((call) => call.state !== "lost" && call.atMs < until)
      .map((call) => ({
        call: callLabel(call),
        atMs: call.atMs,
        delivery: call.delivery,
        deliveredAtMs: sentAtMs(page, call),
      })),
    requests: consent.requestsBefore.map((request) => ({
      method: request.method,
      url: redactUrl(request.url, keys),
      type: request.resourceType,
      atMs: request.atMs,
      collect: collectUrls.has(request.url),
      tracker: request.tracker === undefined ? null : `${request.tracker.name} (${request.tracker.category})`,
    })),
    // The log keeps 200 requests, then only a tracker's first: what it left out is counted.
    requestsLeftOut: consent.requestsLeftOut,
    storageWritten: consent.writes
      .filter((write) => write.atMs < until)
      .map((write) => ({ name: write.name, where: write.where, op: write.op, atMs: write.atMs })),
    storedWhenAnswered: consent.storedAtAnswer.map((item) => ({ name: item.name, where: item.where })),
  };
}

/** A call as the report names it: its kind and event name; an identify's user id, a personal identifier, never shown. */
function callLabel(call: JudgedCall): string {
  if (call.kind === "identify") return "identify(«user id»)";
  return `${call.kind}(${call.name === null ? "" : JSON.stringify(call.name)})`;
}

function capturedCalls(calls: readonly JudgedCall[], context: RedactionContext) {
  const required = new Set(context.requiredAttributes);
  const keys = new Set(context.keys);
  return calls.map((call) => ({
    kind: call.kind,
    // An identify call's first argument is a user id: a personal identifier, never shown.
    name: call.kind === "identify" ? null : call.name,
    state: call.state,
    atMs: call.atMs,
    delivery: call.delivery,
    properties:
      call.kind === "identify"
        ? maskProperties(call.properties, (key, value) => required.has(key) && isPlanLike(value))
        : maskProperties(call.properties, (_key, value) => isPlanLike(value)),
    documentUrl: redactUrl(call.documentUrl, keys),
  }));
}

/** The page's errors, a failed request's URL with its query values hidden. */
function pageErrors(page: JudgedPage, context: RedactionContext) {
  const keys = new Set(context.keys);
  return page.errors.map((error) => ({
    kind: error.kind,
    message: scrubText(error.message, context.secrets),
    ...(error.url === undefined ? {} : { url: scrubText(redactUrl(error.url, keys), context.secrets) }),
  }));
}

function networkLog(page: JudgedPage, context: RedactionContext) {
  const keys = new Set(context.keys);
  const carried = (request: number) => page.calls.filter((call) => call.request === request).map(callLabel);
  return {
    sdkScripts: page.sdkScripts.map((load) => ({
      url: redactUrl(load.url, keys),
      status: load.status,
      failure: load.failure,
      atMs: load.atMs,
    })),
    collect: page.collect.map((request, index) => ({
      method: request.method,
      url: redactUrl(request.url, keys),
      atMs: request.atMs,
      status: request.status,
      failure: request.failure,
      events: request.events.length,
      carried: carried(index),
      decodeError: request.decodeError === null ? null : scrubText(request.decodeError, context.secrets),
    })),
  };
}

/** An attachment of `value`, every string in it (a plan-like property value shown whole, a URL) scrubbed of the run's secrets. */
function jsonAttachment(name: string, value: unknown, secrets: readonly string[]): PageAttachment {
  return {
    name,
    contentType: "application/json",
    body: `${JSON.stringify(hideSecretsDeep(value, secrets), null, 2)}\n`,
  };
}
