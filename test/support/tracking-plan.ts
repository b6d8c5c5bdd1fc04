import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "./scratch.js";

/** A plan in setup-audit's format: a closed Order Completed with required keys, a range and an enum, an open Signed Up, and identify's required `plan`. */
export const ORDER_PLAN = `events:
  Order Completed:
    properties:
      type: object
      required: [order_id, revenue]
      properties:
        order_id: { type: string }
        revenue: { type: number, minimum: 0 }
        currency: { enum: [USD, EUR] }
      additionalProperties: false
  Signed Up: {}
identify:
  traits: { type: object, required: [plan] }
`;

/** Writes `files` (relative name → text) into a new temporary folder and returns its path. */
export function folderWith(files: Record<string, string>): string {
  const folder = scratchDir("tracking-plan");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(folder, name, ".."), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
  return folder;
}
