import { jsonObjectIn } from "../text/parse-json.js";

/**
 * What a login or a `storageState` yields is a secret of the run too: a signed-in session's
 * cookie values and the tokens its pages keep in storage. They are known only once the login ran
 * (or from the spec's storage-state file), and every output is scrubbed of them like of the
 * variables' values.
 */

/** Shorter stored values are flags and choices (`consent=1`, `theme=dark`), not tokens. */
const MIN_TOKEN_LENGTH = 8;

/** A Playwright storage state, as far as its values go. */
export interface StoredState {
  cookies?: readonly { value?: unknown }[];
  origins?: readonly { localStorage?: readonly { value?: unknown }[] }[];
}

/** The token-like strings of a stored value: the value itself, or, when it holds JSON, each string in it. */
function tokensIn(value: string): string[] {
  const parsed = jsonObjectIn(value);
  const strings = parsed !== undefined ? stringsIn(parsed) : [value];
  return strings.filter((text) => text.length >= MIN_TOKEN_LENGTH && !/\s/.test(text));
}

function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsIn);
  return [];
}

/** The secrets a storage state holds: its cookie values and the tokens in its local storage, but the project keys in `keep` (public, and what sdk.key reads). */
export function storedSecrets(state: StoredState, keep: ReadonlySet<string>): string[] {
  const values = [
    ...(state.cookies ?? []).map((cookie) => cookie.value),
    ...(state.origins ?? []).flatMap((origin) => (origin.localStorage ?? []).map((item) => item.value)),
  ];
  const tokens = values.flatMap((value) => (typeof value === "string" ? tokensIn(value) : []));
  return [...new Set(tokens.filter((token) => !keep.has(token)))];
}

/** The secrets of a storage state as its file holds it (JSON text), as `storedSecrets` finds them; none in text that is no JSON object. */
export function storedSecretsIn(text: string, keep: ReadonlySet<string>): string[] {
  return storedSecrets((jsonObjectIn(text) as StoredState | undefined) ?? {}, keep);
}
