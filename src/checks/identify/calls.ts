import type { CapturedCall, PageArtifacts } from "../../artifacts/types.js";
import { madeCalls } from "../check.js";

/** The identify calls whose attributes are known; a call lost before the SDK existed has none. */
export function identifyCalls(page: PageArtifacts): CapturedCall[] {
  return madeCalls(page).filter((call) => call.kind === "identify");
}
