import { escapeHtml } from "../../text/html.js";
/**
 * HTML built by template, where every interpolated value is text unless it is already markup: the
 * overview shows page text, URLs and property values a page captured, and none of them can open a
 * tag, an entity or an attribute.
 */

/** Markup the overview's own templates built: inserted as it is. */
export class Markup {
  constructor(readonly html: string) {}

  toString(): string {
    return this.html;
  }
}

/** What a template may interpolate: text (escaped), a number, markup, or a list of them; null and false add nothing. */
export type Interpolated = string | number | Markup | null | false | readonly Interpolated[];

/** The tagged template: `html\`<p>${message}</p>\`` escapes `message`. */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): Markup {
  return new Markup(
    strings.reduce((built, part, index) => built + part + (index < values.length ? toHtml(values[index]!) : ""), ""),
  );
}

function toHtml(value: Interpolated): string {
  if (value === null || value === false) return "";
  if (value instanceof Markup) return value.html;
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return escapeHtml(value);
  return value.map(toHtml).join("");
}

/**
 * A box that scrolls sideways on its own when its content (a table, a drawing) is wider than the
 * screen, so that the page never does; it takes the keyboard's focus, to be scrolled without a pointer.
 */
export function scrollBox(label: string, content: Markup): Markup {
  return html`<div class="sa-scroll" role="region" tabindex="0" aria-label="${label}">${content}</div>`;
}

/** A finding's message as the console writes it, its `code` spans shown as code, everything else as text. */
export function withCode(message: string): Markup {
  const parts = message.split("`");
  // An odd backtick opens no span: the message is text as it is.
  if (parts.length % 2 === 0) return html`${message}`;
  return html`${parts.map((part, index) => (index % 2 === 1 ? html`<code>${part}</code>` : part))}`;
}

/**
 * A check's markdown (its "why it matters") as text: `code` kept as code, a link's text without
 * its target (the targets are relative to the docs, which the report does not carry), emphasis dropped.
 */
export function inlineMarkdown(markdown: string): Markup {
  return withCode(markdown.replace(/\[([^\]]+)\]\([^)]*\)/g, "$1").replace(/\*\*|__/g, ""));
}
