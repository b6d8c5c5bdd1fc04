import {
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  isSeq,
  visit,
  type Document,
  type LineCounter,
  type Node,
  type Pair,
  type YAMLError,
} from "yaml";
import { formatPath } from "../text/plain-messages.js";
import type { SpecError } from "./errors.js";
import type { SpecProblem } from "./problems.js";

/** A 1-based place in the spec text. */
export interface Position {
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

/** A YAML node reached by a key path, with the pair that holds it when its parent is a mapping. */
interface Found {
  node: Node;
  pair?: Pair;
}

function keyName(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

function findPair(node: Node, key: string): Pair<Node, Node> | undefined {
  if (!isMap(node)) return undefined;
  return (node.items as Pair<Node, Node>[]).find((pair) => keyName(pair) === key);
}

function child(doc: Document, found: Found, segment: PropertyKey): Found | undefined {
  const node = isAlias(found.node) ? found.node.resolve(doc) : found.node;
  if (node === undefined) return undefined;
  if (isSeq(node)) {
    const item = node.items[Number(segment)];
    return item !== undefined && item !== null ? { node: item as Node } : undefined;
  }
  const pair = findPair(node, String(segment));
  return pair?.value ? { node: pair.value, pair } : undefined;
}

// Stops at the deepest node that exists: a missing key is shown at the mapping that lacks it.
function nearest(doc: Document, path: readonly PropertyKey[]): Found | undefined {
  if (doc.contents === null) return undefined;
  let found: Found = { node: doc.contents };
  for (const segment of path) {
    const next = child(doc, found, segment);
    if (next === undefined) break;
    found = next;
  }
  return found;
}

function startOf(found: Found): number | undefined {
  const { node, pair } = found;
  const range = node.range;
  const hasText = range !== undefined && range !== null && range[0] < range[1];
  // A scalar or a [flow, list] is shown where it is written; a block mapping or list, or an
  // empty value, at the key that introduces it, which is where the user will look.
  if (hasText && (isScalar(node) || (isCollection(node) && node.flow === true))) return range[0];
  if (pair !== undefined && isScalar(pair.key) && pair.key.range) return pair.key.range[0];
  return range?.[0];
}

/** Where a problem must be shown: at its key, or at its value, or at the nearest node that exists. */
export function locateProblem(doc: Document, lineCounter: LineCounter, problem: SpecProblem): Position {
  const holder = nearest(doc, problem.path);
  const keyNode =
    problem.key === undefined || holder === undefined ? undefined : findPair(holder.node, problem.key)?.key;
  const offset = isScalar(keyNode) && keyNode.range ? keyNode.range[0] : holder && startOf(holder);
  if (offset === undefined) return { line: 1, column: 1 };
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

/** Where the entry at `path` is written (at its key for a block mapping or list); undefined when the text has no such entry. */
export function positionOf(
  doc: Document,
  lineCounter: LineCounter,
  path: readonly PropertyKey[],
): Position | undefined {
  let found: Found | undefined = doc.contents === null ? undefined : { node: doc.contents };
  for (const segment of path) found = found && child(doc, found, segment);
  const offset = found && startOf(found);
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

/**
 * The spec entry a finding is about, as a path into the spec's data: its experiment, else its
 * goal, else its page (an experiment's findings name its page too); undefined when none is listed.
 */
export function entryPathOf(
  data: unknown,
  about: { page: string | null; goal: string | null; experiment: string | null },
): PropertyKey[] | undefined {
  const indexIn = (section: string, field: string, value: string | null) => {
    const list = data !== null && typeof data === "object" ? (data as Record<string, unknown>)[section] : undefined;
    const index =
      value === null || !Array.isArray(list)
        ? -1
        : list.findIndex((entry) => (entry as Record<string, unknown> | null)?.[field] === value);
    return index === -1 ? undefined : [section, index];
  };
  return (
    indexIn("experiments", "name", about.experiment) ??
    indexIn("goals", "name", about.goal) ??
    indexIn("pages", "id", about.page)
  );
}

/** The key at `offset` and the key path of the mapping that holds it, for errors yaml gives by offset. */
export function keyAtOffset(doc: Document, offset: number): { path: PropertyKey[]; key: string } | undefined {
  let result: { path: PropertyKey[]; key: string } | undefined;
  visit(doc, {
    Pair(_, pair, ancestors) {
      if (!isScalar(pair.key) || pair.key.range?.[0] !== offset) return undefined;
      const path: PropertyKey[] = [];
      ancestors.forEach((ancestor, index) => {
        if (isPair(ancestor)) path.push(keyName(ancestor));
        if (isSeq(ancestor)) path.push(ancestor.items.indexOf(ancestors[index + 1]));
      });
      result = { path, key: keyName(pair) };
      return visit.BREAK;
    },
  });
  return result;
}

/** A YAML (or JSON, read as YAML) parse error at its file:line:col; a duplicate key named with its key path. */
export function yamlSyntaxError(
  file: string,
  doc: Document,
  lineCounter: LineCounter,
  error: YAMLError,
  language: string,
): SpecError {
  const { line, col } = lineCounter.linePos(error.pos[0]);
  const duplicate = error.code === "DUPLICATE_KEY" ? keyAtOffset(doc, error.pos[0]) : undefined;
  if (duplicate !== undefined) {
    return {
      file,
      line,
      column: col,
      path: formatPath(duplicate.path),
      message: `duplicate key "${duplicate.key}": a key may appear only once in a mapping`,
    };
  }
  return { file, line, column: col, path: "", message: `invalid ${language}: ${error.message}` };
}
