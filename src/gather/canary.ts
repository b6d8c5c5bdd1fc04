import { createHash } from "node:crypto";
import type { BrowserContext, Request } from "playwright";
import type { CanarySighting, PageArtifacts } from "../artifacts/types.js";
import { isOnDomain } from "../url/domain.js";
import type { NetworkCapture } from "./network.js";
import type { Canary } from "./gather-run.js";
import type { Gathering, GathererPart } from "./part.js";
import { base64Forms } from "../text/base64.js";

type Form = CanarySighting["form"];

/** Every form a value is commonly sent in: as is, URL-encoded, base64, and hashed (MD5, SHA-256, also of the normalised value). */
export function canaryForms(value: string): { form: Form; text: string }[] {
  const normalised = value.trim().toLowerCase();
  const hash = (algorithm: string, text: string) => createHash(algorithm).update(text).digest("hex");
  const forms: { form: Form; text: string }[] = [
    { form: "plain", text: value },
    { form: "url-encoded", text: encodeURIComponent(value) },
    ...base64Forms(value).map((text) => ({ form: "base64" as const, text })),
    { form: "md5", text: hash("md5", value) },
    { form: "md5", text: hash("md5", normalised) },
    { form: "sha256", text: hash("sha256", value) },
    { form: "sha256", text: hash("sha256", normalised) },
  ];
  return forms.filter((form, index) => forms.findIndex((other) => other.text === form.text) === index);
}

/**
 * Watches every outgoing request for the canary values. Requests to the audited site itself are
 * left out unless they go to the SDK or the collector: a signup form is meant to send the email
 * to its own backend, but nothing else is.
 */
export class CanaryWatch {
  readonly sightings: CanarySighting[] = [];
  private readonly pending: Promise<void>[] = [];
  private readonly forms: { step: number; form: Form; text: string }[];

  constructor(
    context: BrowserContext,
    canaries: readonly Canary[],
    private readonly isFirstParty: (url: URL) => boolean,
    private readonly isSdkTraffic: (url: string) => boolean,
  ) {
    this.forms = canaries.flatMap((canary) =>
      canaryForms(canary.value).map((form) => ({ step: canary.step, ...form })),
    );
    if (this.forms.length > 0) context.on("request", (request) => this.pending.push(this.inspect(request)));
  }

  /** Resolves once every request seen so far has been searched. */
  async settled(): Promise<CanarySighting[]> {
    await Promise.all(this.pending);
    return this.sightings;
  }

  private async inspect(request: Request): Promise<void> {
    const url = new URL(request.url());
    if (!/^https?:$/.test(url.protocol) || (this.isFirstParty(url) && !this.isSdkTraffic(url.href))) return;
    const headers = await request.allHeaders().catch(() => ({}) as Record<string, string>);
    const places: [CanarySighting["where"], string][] = [
      ["url", request.url()],
      ["body", request.postData() ?? ""],
      ["cookie", headers.cookie ?? ""],
    ];
    for (const [where, text] of places) {
      const lowered = text.toLowerCase();
      for (const { step, form, text: needle } of this.forms) {
        const found = form === "md5" || form === "sha256" ? lowered.includes(needle) : text.includes(needle);
        if (
          found &&
          !this.sightings.some(
            (seen) => seen.step === step && seen.host === url.host && seen.where === where && seen.form === form,
          )
        ) {
          this.sightings.push({ step, host: url.host, where, form });
        }
      }
    }
  }
}

/** The canary part: every request searched for the canary values, from before the page exists. */
export class CanaryPart implements GathererPart {
  /** A page never opened sent no canary anywhere. */
  static empty(): Pick<PageArtifacts, "canarySightings"> {
    return { canarySightings: [] };
  }

  private readonly watch: CanaryWatch;

  constructor(gathering: Gathering<"siteDomain">, network: NetworkCapture) {
    const { context, input, run } = gathering;
    this.watch = new CanaryWatch(
      context,
      run.canaries,
      (url) => isOnDomain(url.href, input.siteDomain),
      (url) => network.isCollectUrl(url) || network.isSdkUrl(url),
    );
  }

  async finish(): Promise<Pick<PageArtifacts, "canarySightings">> {
    return { canarySightings: await this.watch.settled() };
  }
}
