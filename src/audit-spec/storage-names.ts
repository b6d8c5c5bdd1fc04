import { globSource } from "../url/glob.js";

/**
 * `sdk.storage` globs: a cookie's or a storage key's name matches when it matches one of them,
 * whole. `*` stands for any characters, `{a,b}` for either.
 */
export function storageNameMatcher(globs: readonly string[]): (name: string) => boolean {
  if (globs.length === 0) return () => false;
  const pattern = new RegExp(`^(?:${globs.map((glob) => globSource(glob, "name")).join("|")})$`);
  return (name) => pattern.test(name);
}
