import { escapeRegExp } from "../text/wording.js";

/**
 * The spec's globs, compiled here alone: `{a,b}` matches either (groups do not nest) and `*` any
 * characters, except that in a URL glob `*` stops at `/` and `**` crosses it. A URL glob matches a
 * URL with or without its query string and hash; a name glob (`sdk.storage`), a name whole.
 */

/** Where `*` stops: at `/` in a URL, nowhere in a cookie's or a storage key's name. */
export type GlobKind = "url" | "name";

/** What is wrong with a glob's braces, in words a spec's author can act on; undefined when they balance. */
export function globBraceProblem(glob: string): string | undefined {
  let open = -1;
  for (let index = 0; index < glob.length; index++) {
    if (glob[index] === "{") {
      if (open !== -1)
        return `"{" at character ${index + 1} opens a group inside the one opened at character ${open + 1}: groups do not nest, write one {a,b} with every choice in it`;
      open = index;
    } else if (glob[index] === "}") {
      if (open === -1)
        return `"}" at character ${index + 1} closes no group: remove it, or open the group with "{" ({a,b} matches a or b)`;
      open = -1;
    }
  }
  return open === -1
    ? undefined
    : `"{" at character ${open + 1} is never closed: close the group with "}" ({a,b} matches a or b), or remove it`;
}

/** The regular expression source of a glob, not anchored; a glob whose braces do not balance is refused (the spec loader says why first). */
export function globSource(glob: string, kind: GlobKind): string {
  const problem = globBraceProblem(glob);
  if (problem !== undefined) throw new Error(`invalid glob "${glob}": ${problem}`);
  let source = "";
  let inGroup = false;
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (char === "*") {
      const double = glob[index + 1] === "*";
      source += double || kind === "name" ? ".*" : "[^/]*";
      if (double) index++;
    } else if (char === "{") {
      inGroup = true;
      source += "(?:";
    } else if (char === "}") {
      inGroup = false;
      source += ")";
    } else if (char === "," && inGroup) {
      source += "|";
    } else {
      source += escapeRegExp(char);
    }
  }
  return source;
}

/** Regular expression source for a URL glob, anchored at both ends. */
export function globToRegExpSource(glob: string): string {
  return `^${globSource(glob, "url")}(?:[?#].*)?$`;
}

/** A predicate that tells whether a URL matches the glob. */
export function urlMatcher(glob: string): (url: string) => boolean {
  const pattern = new RegExp(globToRegExpSource(glob));
  return (url) => pattern.test(url);
}
