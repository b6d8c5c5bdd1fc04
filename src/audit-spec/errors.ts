/** One problem in a spec file, positioned where the user has to fix it. */
export interface SpecError {
  /** The spec file, as it was given. */
  file: string;
  /** 1-based line of the offending key or value. */
  line: number;
  /** 1-based column of the offending key or value. */
  column: number;
  /** Key path of the offending value, like `pages[1].steps[0].fill.selector`; empty for the document root. */
  path: string;
  /** What is wrong, in plain words, with what to write instead when it can be guessed. */
  message: string;
}

/** `file:line:col path: message`, the `path: ` part left out for the document root. */
export function formatSpecError(error: SpecError): string {
  const where = `${error.file}:${error.line}:${error.column}`;
  return error.path === "" ? `${where} ${error.message}` : `${where} ${error.path}: ${error.message}`;
}
