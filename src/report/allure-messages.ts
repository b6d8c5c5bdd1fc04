import type { RuntimeMessage, RuntimeStopStepMessage } from "allure-js-commons/sdk";
import { getGlobalTestRuntime, type MessageTestRuntime } from "allure-js-commons/sdk/runtime";

/**
 * Steps and attachments as Allure runtime messages. allure-playwright's own runtime makes each
 * one a Playwright step, and the test runner records a source-mapped stack for every step:
 * most of the report phase's time on large audits. A runtime message goes to the runner as it
 * is, and allure-playwright applies the messages in order when the test ends, which makes the
 * same steps and attachments.
 */

type Status = RuntimeStopStepMessage["data"]["status"];

function send(message: RuntimeMessage): void {
  // allure-js-commons/sync has set up allure-playwright's runtime by the time a test reports.
  const runtime = getGlobalTestRuntime() as MessageTestRuntime;
  if (!runtime.sendMessageSync) throw new Error("Allure's test runtime is not set up: use allure-js-commons/sync before reporting steps");
  runtime.sendMessageSync(message);
}

/** A step without a body, with its status. */
export function logStep(name: string, status: Status): void {
  const at = Date.now();
  send({ type: "step_start", data: { name, start: at } });
  send({ type: "step_stop", data: { status, stop: at } });
}

/** An attachment in a step of its own, as allure-playwright shows attachments. */
export function attachContent(name: string, body: string | Buffer, contentType: string): void {
  send({ type: "attachment_content", data: { name, content: Buffer.from(body).toString("base64"), encoding: "base64", contentType, wrapInStep: true, timestamp: Date.now() } });
}

/** A file as an attachment in a step of its own; the reporter copies it into the results. */
export function attachFile(name: string, path: string, contentType: string): void {
  send({ type: "attachment_path", data: { name, path, contentType, wrapInStep: true, timestamp: Date.now() } });
}
