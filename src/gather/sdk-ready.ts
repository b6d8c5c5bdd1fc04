import type { CallsPart } from "./calls.js";
import type { NetworkCapture } from "./network.js";
import type { Gathering, GathererPart } from "./part.js";

/**
 * The SDK readiness part. A visitor needs longer than the audit to act: a journey starts once the
 * SDK is ready, or once no SDK script is left that could make it so, so that the calls the journey
 * triggers are judged on the page's setup, not on how fast the audit clicks. A stub snippet whose
 * SDK script is not requested yet means a tag loaded late (after load, when idle, by a tag
 * manager): the SDK is still to come, until the first wait for it ran out.
 */
export class SdkReadyPart implements GathererPart {
  private lateSdkWaitedFor = false;

  constructor(
    private readonly gathering: Gathering<"sdk" | "awaitsSdk">,
    private readonly calls: CallsPart,
    private readonly network: NetworkCapture,
  ) {}

  /** True once the SDK is ready, at work without its global, or cannot become ready. */
  readonly readyOrNever = (): boolean =>
    this.calls.sdkReadyAt !== null || this.calls.atWorkWithoutGlobal() || !this.mayBecomeReady();

  async settle(): Promise<void> {
    const { input, changed } = this.gathering;
    const { sdk } = input;
    if (!input.awaitsSdk) return;
    // Nothing of the SDK yet: a quiet window, on both clocks, for a late tag to show itself.
    const sdkSeen = () => this.network.sdkScripts.length > 0 || this.calls.globalAssigned;
    if (!sdkSeen()) {
      const quietWindow = Promise.all([
        new Promise((resolve) => setTimeout(resolve, sdk.settleMs)),
        this.gathering.pageClock(sdk.settleMs),
      ]);
      await Promise.race([changed.waitFor(sdkSeen, sdk.deliveryTimeoutMs), quietWindow]);
    }
    await changed.waitFor(this.readyOrNever, sdk.deliveryTimeoutMs);
    this.lateSdkWaitedFor = true;
  }

  private mayBecomeReady(): boolean {
    const scripts = this.network.sdkScripts;
    return scripts.length > 0
      ? scripts.some((load) => load.failure === null && (load.status === null || load.status < 400))
      : this.calls.globalAssigned && !this.lateSdkWaitedFor;
  }
}
