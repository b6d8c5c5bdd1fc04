import type { Gathering, GathererPart } from "./part.js";
import type { JourneyPart } from "./steps.js";

/**
 * The quiet window part: the page is done once every part is settled (every call it made has an
 * answered request, every expected call and page view was seen) and nothing new came for a quiet
 * window, on the audit's clock and on the page's (its timers run late when its thread is busy or
 * starved); at most deliveryTimeoutMs after its journey, or after the last thing it saw (a request the
 * page sent late gets its answer), and never more than twice that after its journey. The reads that come before it in the list
 * (the tag, the selector counts, the screenshot) overlap that window.
 */
export class QuietWindowPart implements GathererPart {
  constructor(
    private readonly gathering: Gathering<"sdk">,
    private readonly journey: JourneyPart,
  ) {}

  async settle(): Promise<void> {
    const { gathering } = this;
    await gathering.changed.waitForQuiet(
      () => gathering.isSettled(),
      () => gathering.activity(),
      gathering.input.sdk.settleMs,
      Math.max(0, this.journey.doneBy - Date.now()),
      { pageClock: gathering.pageClock, lateActivityMs: gathering.input.sdk.deliveryTimeoutMs },
    );
    gathering.markDone();
  }
}
