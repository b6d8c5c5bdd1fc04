import { escapeRegExp } from "../text/wording.js";

/**
 * `sdk.storage` globs: a cookie's or a storage key's name matches when it matches one of them,
 * whole. `*` stands for any characters, `{a,b}` for either.
 */
export function storageNameMatcher(globs: readonly string[]): (name: string) => boolean {
  if (globs.length === 0) return () => false;
  const pattern = new RegExp(`^(?:${globs.map(globSource).join("|")})$`);
  return (name) => pattern.test(name);
}

function globSource(glob: string): string {
  let source = "";
  let inGroup = false;
  for (const char of glob) {
    if (char === "*") source += ".*";
    else if (char === "{" && !inGroup) {
      inGroup = true;
      source += "(?:";
    } else if (char === "}" && inGroup) {
      inGroup = false;
      source += ")";
    } else if (char === "," && inGroup) source += "|";
    else source += escapeRegExp(char);
  }
  return inGroup ? escapeRegExp(glob) : source;
}
