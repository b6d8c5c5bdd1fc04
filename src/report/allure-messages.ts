import type { Label, Parameter } from "allure-js-commons";
import type { RuntimeMessage, RuntimeStopStepMessage } from "allure-js-commons/sdk";

/**
 * An Allure result's content as Allure runtime messages: the form Allure's reporter runtime applies
 * to a result, in order (labels and parameters, steps, attachments).
 */

type Status = RuntimeStopStepMessage["data"]["status"];

/** The result's name, labels, parameters and description. */
export function metadata(data: {
  displayName?: string;
  labels?: Label[];
  parameters?: Parameter[];
  description?: string;
}): RuntimeMessage {
  return { type: "metadata", data };
}

/** A step without a body, with its status. */
export function logStep(name: string, status: Status): RuntimeMessage[] {
  const at = Date.now();
  return [
    { type: "step_start", data: { name, start: at } },
    { type: "step_stop", data: { status, stop: at } },
  ];
}

/** An attachment in a step of its own, as allure-playwright shows attachments. */
export function attachContent(name: string, body: string | Buffer, contentType: string): RuntimeMessage {
  return {
    type: "attachment_content",
    data: {
      name,
      content: Buffer.from(body).toString("base64"),
      encoding: "base64",
      contentType,
      wrapInStep: true,
      timestamp: Date.now(),
    },
  };
}

/** A file as an attachment in a step of its own; the runtime copies it into the results. */
export function attachFile(name: string, path: string, contentType: string): RuntimeMessage {
  return { type: "attachment_path", data: { name, path, contentType, wrapInStep: true, timestamp: Date.now() } };
}
