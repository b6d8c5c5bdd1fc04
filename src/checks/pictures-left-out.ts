import type { PageArtifacts, PictureLeftOut } from "../artifacts/types.js";
import type { Judgement } from "../findings/finding.js";
import { capitalised } from "../text/wording.js";

/**
 * A picture whose masks could not be placed is left out rather than saved with a secret in it
 * (docs/closed-sites.md): the finding that judges its unit says so, and why. Its verdict stays:
 * the pictures never change one.
 */

/** How a finding names each kind of picture. */
const PICTURE_NAMES: Record<PictureLeftOut["picture"], string> = {
  screenshot: "screenshot",
  view: "first screen (the side-by-side picture's)",
  filmstrip: "filmstrip",
};

/** `judged`, with the pictures of `unit` that were left out named in its message and evidence; as it is when none was. */
export function withPicturesLeftOut(judged: Judgement, unit: PageArtifacts): Judgement {
  const leftOut = unit.picturesLeftOut ?? [];
  if (leftOut.length === 0) return judged;
  const said = leftOut.map(({ picture, why }) => `its ${PICTURE_NAMES[picture]} was not saved: ${why}`).join("; ");
  return {
    ...judged,
    message: `${judged.message} ${capitalised(said)}.`,
    evidence: { ...judged.evidence, picturesLeftOut: leftOut },
  };
}
