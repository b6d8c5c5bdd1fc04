/** Exit codes of the public contract. */
export const EXIT = { ok: 0, failed: 1, invalid: 2, couldNotRun: 3, interrupted: 130 } as const;

/** An error the CLI expected: it exits with `exitCode` and prints `message` and one line on what to do. */
export class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** Bad flags or arguments: exit 2. */
export function usageError(message: string, hint = "Run `setup-audit --help` for the commands and flags."): CliError {
  return new CliError(EXIT.invalid, message, hint);
}
