import { request } from "undici";

/** Null when the URL answers at all (any HTTP status), else why it could not be reached. */
export async function unreachableReason(url: string, timeoutMs = 10_000): Promise<string | null> {
  try {
    const response = await request(url, { method: "GET", headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    await response.body.dump();
    return null;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
    return cause ?? (error as Error).message;
  }
}
