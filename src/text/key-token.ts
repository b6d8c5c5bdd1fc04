/**
 * A value where an SDK keeps its key (under a key-shaped name, an init call's first argument, a
 * preset's key place in its script URL): there any token of 6 to 128 letters, digits, `_` and `-`
 * is the key, without a digit too (`YOUR_WRITE_KEY`), unless it is a number or a lower-case word.
 */
export function isKeyToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{6,128}$/.test(value) && !/^\d+$/.test(value) && !/^[a-z]+$/.test(value);
}
