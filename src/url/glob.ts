import { escapeRegExp } from "../text/wording.js";

/**
 * URL globs as the spec writes them: `**` matches anything, `*` anything but `/`, `{a,b}` either.
 * A glob matches a URL with or without its query string and hash.
 */

/** Regular expression source for a URL glob, anchored at both ends. */
export function globToRegExpSource(glob: string): string {
  let source = "";
  let inGroup = false;
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (char === "*") {
      const double = glob[index + 1] === "*";
      source += double ? ".*" : "[^/]*";
      if (double) index++;
    } else if (char === "{") {
      inGroup = true;
      source += "(?:";
    } else if (char === "}" && inGroup) {
      inGroup = false;
      source += ")";
    } else if (char === "," && inGroup) {
      source += "|";
    } else {
      source += escapeRegExp(char);
    }
  }
  return `^${source}(?:[?#].*)?$`;
}

/** A predicate that tells whether a URL matches the glob. */
export function urlMatcher(glob: string): (url: string) => boolean {
  const pattern = new RegExp(globToRegExpSource(glob));
  return (url) => pattern.test(url);
}
