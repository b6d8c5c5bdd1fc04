import { specJsonSchema } from "../../src/audit-spec/json-schema.js";
import { cell, githubSlug } from "./markdown.js";

/**
 * docs/spec.md's reference, read from the spec's JSON Schema (generated from the zod schema
 * `validate` uses): every field, its type, its default and its description. A titled schema (a
 * journey step) is described once, in a section of its own, and linked wherever it is used.
 */

/** The parts of a JSON Schema node the reference reads. */
interface Node {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  format?: string;
  properties?: Record<string, Node>;
  required?: string[];
  items?: Node;
  minItems?: number;
  additionalProperties?: Node | boolean;
  anyOf?: Node[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** One field of the reference. */
interface Field {
  path: string;
  type: string;
  default: string;
  description: string;
}

/** A value as a spec writes it, in YAML's flow style: `[desktop, mobile]`, `{ name: X-Setup-Audit }`. */
function yaml(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(yaml).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    return entries.length === 0 ? "{}" : `{ ${entries.map(([key, entry]) => `${key}: ${yaml(entry)}`).join(", ")} }`;
  }
  if (typeof value === "string" && (value === "" || /^[\s\-?:,[\]{}#&*!|>'"%@`]|[:#]\s|\s$/.test(value)))
    return JSON.stringify(value);
  return String(value);
}

function code(value: unknown): string {
  return `\`${yaml(value)}\``;
}

/** `a`, `b` or `c`. */
function either(words: readonly string[]): string {
  return words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

function range(node: Node): string {
  const { exclusiveMinimum, exclusiveMaximum } = node;
  // zod bounds every integer by the safe integers: no bound a spec's writer sets.
  const minimum = node.minimum === Number.MIN_SAFE_INTEGER ? undefined : node.minimum;
  const maximum = node.maximum === Number.MAX_SAFE_INTEGER ? undefined : node.maximum;
  if (minimum !== undefined && maximum !== undefined) return `, ${minimum} to ${maximum}`;
  const bounds = [
    minimum === undefined ? null : `≥ ${minimum}`,
    exclusiveMinimum === undefined ? null : `> ${exclusiveMinimum}`,
    maximum === undefined ? null : `≤ ${maximum}`,
    exclusiveMaximum === undefined ? null : `< ${exclusiveMaximum}`,
  ].filter((bound) => bound !== null);
  return bounds.length === 0 ? "" : `, ${bounds.join(" and ")}`;
}

/** A list's items in words: `strings`, `mappings`, `[journey steps](#journey-step)`. */
function plural(type: string): string {
  if (/^[a-z]+$/.test(type)) return `${type}s`;
  const link = /^\[([^\]]+)\](\(#[^)]+\))$/.exec(type);
  return link ? `[${link[1]}s]${link[2]}` : `(${type})`;
}

function typeOf(node: Node): string {
  return either([...new Set(alternatives(node))]);
}

/** What a value may be, each alternative in words: the options of a union and the values of an enum one by one. */
function alternatives(node: Node): string[] {
  if (node.title !== undefined) return [`[${node.title.toLowerCase()}](#${githubSlug(node.title)})`];
  if (node.anyOf) return node.anyOf.flatMap(alternatives);
  if (node.const !== undefined) return [code(node.const)];
  if (node.enum) return node.enum.map(code);
  if (Array.isArray(node.type)) return node.type.flatMap((type) => alternatives({ ...node, type }));
  return [kind(node, node.type)];
}

function kind(node: Node, type: string | undefined): string {
  switch (type) {
    case "string":
      return node.format === "uri" ? "URL" : "string";
    case "integer":
    case "number":
      return `${type}${range(node)}`;
    case "array":
      return `list of ${plural(node.items ? typeOf(node.items) : "value")}${node.minItems ? ` (at least ${node.minItems})` : ""}`;
    case "object":
      return typeof node.additionalProperties === "object"
        ? `mapping: name → ${typeOf(node.additionalProperties)}`
        : "mapping";
    case undefined:
      return "any value";
    default:
      return type;
  }
}

/** A default worth a reader's time: none for an empty mapping, whose fields give their own. */
function defaultOf(node: Node, required: boolean): string {
  if (node.default !== undefined) {
    const empty =
      node.default !== null &&
      typeof node.default === "object" &&
      !Array.isArray(node.default) &&
      Object.keys(node.default).length === 0;
    return empty ? "" : code(node.default);
  }
  return required ? "required" : "";
}

/**
 * The fields below a node, depth first: a mapping's keys, a list's items' keys, a named mapping's
 * values' keys, each option's keys. An option that is a mapping of one key (a journey step's
 * `click`) names the option: that key is no more required than the option is.
 */
function fieldsBelow(node: Node, path: string, titled: Map<string, Node>): Field[] {
  if (node.title !== undefined) {
    titled.set(node.title, node);
    return [];
  }
  const below: Field[] = [];
  const keys = Object.keys(node.properties ?? {});
  const names = keys.length === 1 && node.required?.length === 1;
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    below.push(
      ...fieldsAt(
        child,
        path === "" ? key : `${path}.${key}`,
        !names && (node.required?.includes(key) ?? false),
        titled,
      ),
    );
  }
  if (node.items) below.push(...fieldsBelow(node.items, `${path}[]`, titled));
  if (typeof node.additionalProperties === "object")
    below.push(...fieldsBelow(node.additionalProperties, `${path}.<name>`, titled));
  for (const option of node.anyOf ?? []) below.push(...fieldsBelow(option, path, titled));
  return below;
}

function fieldsAt(node: Node, path: string, required: boolean, titled: Map<string, Node>): Field[] {
  const field = { path, type: typeOf(node), default: defaultOf(node, required), description: node.description ?? "" };
  return [field, ...fieldsBelow(node, path, titled)];
}

function table(fields: readonly Field[], link: (field: Field) => string = (field) => `\`${field.path}\``): string {
  return [
    "| field | type | default | description |",
    "| --- | --- | --- | --- |",
    ...fields.map(
      (field) => `| ${link(field)} | ${cell(field.type)} | ${cell(field.default)} | ${cell(field.description)} |`,
    ),
  ].join("\n");
}

/** The generated reference: the top level, then a section per top-level field with fields of its own, then each titled schema. */
export function specReference(): string {
  const root = specJsonSchema() as Node;
  const titled = new Map<string, Node>();
  const top = Object.entries(root.properties ?? {}).map(([key, node]) => ({
    field: fieldsAt(node, key, root.required?.includes(key) ?? false, titled)[0]!,
    below: fieldsBelow(node, key, titled),
  }));
  const sections = top
    .filter(({ below }) => below.length > 0)
    .map(({ field, below }) => [`### \`${field.path}\``, "", field.description, "", table(below)].join("\n"));
  const shared = [...titled].map(([title, node]) =>
    [
      `### ${title}`,
      "",
      node.description ?? "",
      "",
      table(fieldsBelow({ ...node, title: undefined }, "", new Map())),
    ].join("\n"),
  );
  const topTable = table(
    top.map(({ field }) => field),
    (field) =>
      top.find((entry) => entry.field === field)!.below.length > 0
        ? `[\`${field.path}\`](#${githubSlug(field.path)})`
        : `\`${field.path}\``,
  );
  return ["### The top level", topTable, ...sections, ...shared].join("\n\n");
}
