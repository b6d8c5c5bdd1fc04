import { z } from "zod";
import { CHECK_IDS } from "../findings/finding.js";
import { environmentDomain, isOnDomain } from "../url/domain.js";
import { globBraceProblem } from "../url/glob.js";
import { EXPERIMENT_PRESET_NAMES, EXPERIMENT_PRESETS } from "../vendors/experiment-presets.js";
import { PRESET_NAMES, PRESETS, presetReady } from "../vendors/presets.js";

/** A glob (src/url/glob.ts) whose braces balance: an unclosed `{` would match nothing, or break the pattern. */
const glob = z
  .string()
  .min(1)
  .superRefine((value, ctx) => {
    const problem = globBraceProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  });

/** A path on the audited site: absolute path, optionally with query and hash. */
const sitePath = z
  .string()
  .regex(/^\/(?!\/)/, { error: "must be a path on the site that starts with a single '/', like /signup", abort: true })
  // URL parsers read `/\\host` (or a tab after the slash) as `//host`: such a path would leave the site.
  .refine(
    (path) => new URL(path, "http://site.invalid").host === "site.invalid",
    "must be a path on the site, not a way to another host",
  );

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL, like http://127.0.0.1:47412" });

/** An either/or rule judges a mapping that has nothing else wrong (and is a mapping at all). */
const nothingElseWrong = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

/**
 * The NAME of an environment variable that holds `what`: secrets come only from the environment,
 * never from the spec. The message never quotes the value, which may be the secret itself.
 */
const variableName = (what: string, example: string) => {
  const message = `must be the NAME of an environment variable that holds ${what} (like ${example}), never ${what} itself`;
  return z.string({ error: message }).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, message);
};

/** A token of HTTP's grammar: a header's or a cookie's name. */
const httpToken = (what: string, example: string) =>
  z
    .string()
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: `must be ${what} (letters, digits and - only, like ${example})` });

/** What a journey types: a value written in the spec, or a secret from the environment variable it names. */
const fillSchema = z
  .strictObject({
    selector: z.string().min(1).describe("The selector of the field typed into."),
    value: z.string().optional().describe("The text typed, as written: no secret, since it shows in the spec."),
    valueEnv: variableName("the text to type", "STAGING_PASSWORD")
      .optional()
      .describe(
        "The NAME of the environment variable that holds the text typed (a password), instead of value: the text never shows in the spec or any output.",
      ),
    canary: z
      .boolean()
      .optional()
      .describe(
        "The value is a canary: identify.pii fails when it turns up in a request to another host than the environment's domain, or to the SDK or its collector.",
      ),
  })
  .refine((fill) => (fill.value === undefined) !== (fill.valueEnv === undefined), {
    message:
      "needs value (the text typed, as written) or valueEnv (the NAME of the variable that holds it, for a secret), one of them",
    ...nothingElseWrong,
  });

/** One step of a journey; `goto` is implicit for the page's own path. Its title documents it once, wherever it is used. */
const stepSchema = z
  .union([
    z.strictObject({ fill: fillSchema.describe("Types a value into a field.") }),
    z.strictObject({ click: z.string().min(1).describe("Clicks the element this selector matches.") }),
    z.strictObject({
      waitForEvent: z
        .string()
        .min(1)
        .describe(
          "Waits until the page makes a call with this event name (a call lost before the SDK existed does not count).",
        ),
    }),
    z.strictObject({
      waitFor: z.string().min(1).describe("Waits until the element this selector matches is visible."),
    }),
    z.strictObject({ goto: sitePath.describe("Goes to this path of the site.") }),
    z.strictObject({
      back: z
        .literal(true)
        .describe("Goes back one entry in the tab's history, as the browser's back button does (true)."),
    }),
    z.strictObject({
      forward: z
        .literal(true)
        .describe("Goes forward one entry in the tab's history, as the browser's forward button does (true)."),
    }),
    z.strictObject({
      waitForUrl: glob.describe(
        "Waits until the tab's URL matches this glob: against its path, or the whole URL when the glob has a scheme; a query or fragment after the match is allowed.",
      ),
    }),
  ])
  .meta({
    title: "Journey step",
    description:
      "One step of a journey, a mapping with one key: fill, click, waitFor, waitForEvent, goto, back, forward or waitForUrl.",
  });

/** A host the login may pass through: a name alone, without scheme, port or path. */
const hostName = z
  .string()
  .regex(/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/, {
    error: "must be a host name, like sso.example.test (no scheme, port or path)",
  })
  .transform((host) => host.toLowerCase());

/** Headers the browser writes itself: a value of the spec's own would break the site's session or routing. */
const BROWSER_HEADERS = new Set(["host", "cookie", "content-length", "connection"]);

/** How the audit gets into a closed site (docs/closed-sites.md); every secret is an environment variable's NAME. */
const authSchema = z
  .strictObject({
    basic: z
      .strictObject({
        usernameEnv: variableName("the user name", "STAGING_USER").describe(
          "The NAME of the environment variable that holds the user name.",
        ),
        passwordEnv: variableName("the password", "STAGING_PASSWORD").describe(
          "The NAME of the environment variable that holds the password.",
        ),
      })
      .optional()
      .describe("HTTP Basic credentials, given when the base URL's origin asks for them, and to no other origin."),
    headers: z
      .record(
        httpToken("an HTTP header name", "X-Preview-Token").refine(
          (name) => !BROWSER_HEADERS.has(name.toLowerCase()),
          "is a header the browser writes itself: use auth.cookies for cookies",
        ),
        variableName("the header's value", "PREVIEW_TOKEN"),
      )
      .refine(
        (headers) => Object.keys(headers).length > 0,
        "names no header: give Header-Name: VARIABLE_NAME pairs, or leave headers out",
      )
      .optional()
      .describe(
        "Headers on every request to the base URL's origin and no other: the header's name → the NAME of the environment variable that holds its value. Cookie and Host are the browser's own.",
      ),
    cookies: z
      .array(
        z.strictObject({
          name: httpToken("a cookie name", "preview").describe("The cookie's name."),
          valueEnv: variableName("the cookie's value", "PREVIEW_COOKIE").describe(
            "The NAME of the environment variable that holds the cookie's value.",
          ),
        }),
      )
      .min(1)
      .optional()
      .describe("Cookies set before any page opens, host-only on the base URL's host."),
    storageState: z
      .string()
      .min(1)
      .optional()
      .describe(
        "A Playwright storage-state file (a signed-in browser's cookies and local storage), relative to the spec: every page, and the login, starts from it. It holds a session: keep it out of version control.",
      ),
    login: z
      .strictObject({
        path: sitePath.describe(
          "The login page's path: where the login starts; a page the site sends back there was kept out.",
        ),
        hosts: z
          .array(hostName)
          .default([])
          .describe(
            "Other hosts the login may pass through (a single sign-on provider); it is stopped before any other host off the environment's domain.",
          ),
        steps: z
          .array(stepSchema)
          .min(1, "needs at least one step: fill the form, submit it, and waitFor what only a signed-in page shows")
          .refine(
            (steps) => steps.every((step) => !("waitForEvent" in step)),
            "waits for elements (waitFor), not for SDK calls (waitForEvent): the login is no audited page",
          )
          .describe(
            "The login's steps, a page's journey steps but for waitForEvent; end them with a waitFor of what only a signed-in page shows.",
          ),
      })
      .optional()
      .describe(
        "A journey walked once per viewport before that viewport's pages; the storage state it ends with starts each of them. It got in when every step worked and it ended off the login's path.",
      ),
  })
  .refine((auth) => Object.values(auth).some((way) => way !== undefined), {
    message:
      "names no way in: give basic, headers, cookies, storageState or login (see the README's Closed sites), or leave auth out",
    ...nothingElseWrong,
  });

const environmentSchema = z.strictObject({
  key: z
    .string()
    .min(1)
    .describe(
      "The project key this environment's pages must install (sdk.key); no other environment of the spec may have the same one.",
    ),
  projectKey: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The service's project key, for the api.* checks and the {project} placeholder, when the key the pages install is another vendor's SDK's; default: key.",
    ),
  experimentKey: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The key experimentSdk must be initialised with in this environment (a client key, client-side ID or SDK key): experiment.assignment fails another; no other environment of the spec may have the same one.",
    ),
  baseUrl: httpUrl.describe(
    "Where the pages are: each page's path is read from here. It must be on the environment's domain.",
  ),
  domain: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The domain every audited URL must stay on, its subdomains included, whatever the port; default: the base URL's host.",
    ),
  auth: authSchema
    .optional()
    .describe(
      "How the audit gets into a closed site: basic, headers, cookies, storageState and login, alone or together. Every secret comes from an environment variable the spec names.",
    ),
});

/** A path under api.baseUrl, with `{project}` (the environment's key) and `{projectId}` as the only placeholders. */
const apiPath = z
  .string()
  .startsWith("/")
  .refine(
    (path) => [...path.matchAll(/\{([^}]*)\}/g)].every(([, name]) => name === "project" || name === "projectId"),
    "may only use the placeholders {project} (the environment's key) and {projectId} (the listed project's id)",
  );

/** Overrides of the API client's retry policy; its defaults (src/api/retry.ts) are in the descriptions. */
const apiRetrySchema = z.strictObject({
  attempts: z
    .number()
    .int()
    .min(1)
    .max(10)
    .optional()
    .describe("Requests per endpoint at most, the first included; default 4."),
  baseDelayMs: z
    .number()
    .int()
    .min(0)
    .max(60_000)
    .optional()
    .describe("Bound of the first wait, in milliseconds; it doubles for each retry; default 500."),
  maxDelayMs: z
    .number()
    .int()
    .min(0)
    .max(300_000)
    .optional()
    .describe(
      "Cap on a wait's bound, in milliseconds; each wait is drawn at random below its bound (full jitter); default 8000.",
    ),
  totalTimeoutMs: z
    .number()
    .int()
    .positive()
    .max(600_000)
    .optional()
    .describe("Budget per endpoint, requests and waits together, in milliseconds; default 30000."),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .max(300_000)
    .optional()
    .describe("Bound on one request, its body included, in milliseconds; default 10000."),
});

const apiSchema = z.strictObject({
  baseUrl: httpUrl.describe("The API's base URL; a path prefix is kept (https://example.test/service)."),
  keyEnv: variableName("the key", "SERVICE_API_KEY").describe(
    "The NAME of the environment variable that holds the API key, never the key itself.",
  ),
  goalsPath: apiPath
    .optional()
    .describe(
      "The path of the project's goals under baseUrl, with {project} (the environment's key) and {projectId} (the listed project's id); enables api.goals.",
    ),
  recentEventsPath: apiPath
    .optional()
    .describe(
      "The path of the project's recent events under baseUrl, placeholders as goalsPath; enables the ingestion check of events.delivered.",
    ),
  retry: apiRetrySchema.optional().describe("Overrides of the API client's retry policy."),
});

/** Settings of the sample-ratio-mismatch test on the report's visitor counts (docs/report-warnings.md). */
const srmSchema = z.strictObject({
  alpha: z.number().gt(0).lt(1).default(0.001).describe("The significance level: a p-value below it is a mismatch."),
  minimumVisitors: z
    .number()
    .int()
    .min(1)
    .default(100)
    .describe("The visitors each variation must expect (the total × its planned share) before the test judges."),
});

/** A misspelled key ("fiel: …") already says what is wrong: the either/or rule would only repeat it. */
const keysAreKnown = {
  when: (payload: { issues: readonly { code?: string }[] }) =>
    payload.issues.every((issue) => issue.code !== "unrecognized_keys"),
};

/** Where the service's report data comes from — an API path or an exported JSON file — and how SRM is judged. */
const reportSchema = z
  .strictObject({
    path: apiPath
      .optional()
      .describe("A path of the report data under api.baseUrl, placeholders as api.goalsPath; needs the api section."),
    file: z.string().min(1).optional().describe("An exported JSON file of the report data, relative to the spec."),
    srm: srmSchema.prefault({}).describe("The sample-ratio-mismatch test on the visitor counts."),
  })
  .refine((report) => report.path !== undefined || report.file !== undefined, {
    message:
      "needs path (an API path, like /v1/projects/{project}/report) or file (an exported JSON file, relative to the spec)",
    ...keysAreKnown,
  })
  .refine((report) => report.path === undefined || report.file === undefined, {
    message: "names both path and file: keep the one the report data should come from",
    ...keysAreKnown,
  });

/** A name, or a dotted path of names through nested objects; `example` is what the error shows. */
const dottedPath = (what: string, example: string) =>
  z
    .string()
    .regex(/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/, `must be a ${what} or a dotted path to one, like ${example}`);

/** A method on the SDK global: a name, or a dotted path for nested objects (`people.set`). */
const methodPath = dottedPath("method name", "track or people.set");

/** A property inside an argument (`_properties.$set`). */
const propertyPath = dottedPath("property name", "_properties.$set");

/** One method path or several, always read as a list. */
const methodPaths = (minimum: number) =>
  z
    .union([methodPath, z.array(methodPath).min(minimum)])
    .transform((paths) => (typeof paths === "string" ? [paths] : paths));

const REQUIRED_SDK_FIELDS = ["script", "global", "track", "identify", "collect"] as const;

/** The bound on waiting for readiness and batched delivery without a preset or a value of the spec's own. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 6000;
/** The longest `sdk.deliveryTimeoutMs` a spec may give. */
export const MAX_DELIVERY_TIMEOUT_MS = 120_000;

/** The `experimentSdk` section: the SDK that assigns the visitor a variation, its preset's fields resolved. */
export const experimentSdkSchema = z
  .strictObject({
    preset: z
      .enum(EXPERIMENT_PRESET_NAMES)
      .describe(
        "The experimentation SDK, whose defaults fill every field not given (src/vendors/); a field given beside it wins.",
      ),
    global: z
      .string()
      .regex(/^[A-Za-z_$][\w$]*$/, "must be a JavaScript identifier")
      .optional()
      .describe("The window global the SDK's bundle defines; default: the preset's."),
    init: methodPaths(1)
      .optional()
      .describe(
        "Path(s) on the global of the constructor or factory whose first string argument is the key and whose result is the client (Statsig's StatsigClient); default: the preset's.",
      ),
    evaluate: methodPaths(1)
      .optional()
      .describe(
        "The client's methods that evaluate a flag by its key, their first argument (Statsig's getExperiment); default: the preset's.",
      ),
    exposures: glob
      .optional()
      .describe(
        "URL glob of the requests that carry the SDK's exposures to its own endpoint (Statsig's **/v1/rgstr), where experiment.exposure reads them; default: the preset's, which matches the vendor's host and a first-party path that proxies it.",
      ),
  })
  .superRefine((section, context) => {
    if (section.exposures === undefined || EXPERIMENT_PRESETS[section.preset].exposures !== undefined) return;
    const reading = Object.entries(EXPERIMENT_PRESETS).flatMap(([name, preset]) => (preset.exposures ? [name] : []));
    context.addIssue({
      code: "custom",
      path: ["exposures"],
      message: `the audit reads no exposures of ${section.preset} from requests of their own (it reads those of ${reading.join(", ")}): remove exposures, or map the exposure call with the experiment's exposure`,
    });
  })
  .transform((section) => {
    const preset = EXPERIMENT_PRESETS[section.preset];
    return {
      preset: section.preset,
      global: section.global ?? preset.global,
      init: section.init ?? preset.init,
      evaluate: section.evaluate ?? preset.evaluate,
      exposures: section.exposures ?? preset.exposures?.url ?? null,
      // Whether a reload in the same browser logs the visitor's exposure again: the page's reload then judges it.
      exposedOnEachLoad: preset.exposures?.onEachLoad === true,
    };
  });

/** The `sdk` section: a preset and/or the fields it fills, resolved into every field. */
export const sdkSchema = z
  .strictObject({
    preset: z
      .enum(PRESET_NAMES)
      .nullable()
      .optional()
      .describe("A vendor whose defaults fill every field not given (src/vendors/); a field given beside it wins."),
    script: glob.optional().describe("URL glob of the SDK's script."),
    global: z
      .string()
      .regex(/^[A-Za-z_$][\w$]*$/, "must be a JavaScript identifier")
      .optional()
      .describe("The window global the SDK defines."),
    track: methodPaths(1)
      .optional()
      .describe("Method path(s) of track-kind calls on the global: a name or a list, dotted for nested objects."),
    identify: methodPaths(1)
      .optional()
      .describe(
        "Method path(s) of identify-kind calls ([identify, people.set]); their object arguments are the visitor's attributes.",
      ),
    init: methodPaths(0)
      .optional()
      .describe(
        "Method path(s) whose first string argument is the key the page installs (mixpanel.init(token)), where sdk.key looks too; default: none, or the preset's.",
      ),
    traits: propertyPath
      .nullable()
      .optional()
      .describe(
        "Where an identify-kind call's argument keeps its attributes when it is a builder, not a plain object (Amplitude's _properties.$set); null: the argument itself.",
      ),
    properties: dottedPath("property name", "event_properties")
      .nullable()
      .optional()
      .describe(
        "Where a track-kind call's argument keeps its properties when it is an event object, not a name (Amplitude's track({ event_type, event_properties }): event_properties); its name is the object's event_type, event or name. null: track(name, properties) only.",
      ),
    ready: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .describe(
        "A JavaScript expression, true once the SDK is ready; without it, the global is ready once the SDK's script has run, it is no array and it has its track method(s).",
      ),
    collect: glob.optional().describe("URL glob of the requests that deliver events."),
    deliveryTimeoutMs: z
      .number()
      .int()
      .positive()
      .max(MAX_DELIVERY_TIMEOUT_MS)
      .optional()
      .describe(
        `Bound on waiting for readiness and batched delivery, in milliseconds; default ${DEFAULT_DELIVERY_TIMEOUT_MS}, or the preset's.`,
      ),
    settleMs: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .optional()
      .describe("The quiet window (no new call or collect request) that ends a page, in milliseconds; default 250."),
    page: methodPaths(0)
      .optional()
      .describe(
        "Method path(s) on the global whose calls are page views (Segment's page); default: none, or the preset's.",
      ),
    pageEvent: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .describe(
        "A track name that means a page view (PostHog's $pageview): such a track is a page view, not a track; default: none, or the preset's.",
      ),
    pageViews: z
      .boolean()
      .optional()
      .describe(
        "The site sends one page view per route, on loads and on client-side route changes: events.pageviews judges each route the journey visits (docs/single-page-apps.md). Default false.",
      ),
    routeQuery: z
      .enum(["keep", "ignore"])
      .optional()
      .describe(
        "Whether a change of the query alone (/shop to /shop?color=red: filters, paging) is a route change, which events.pageviews expects a page view for: keep (default) counts it, ignore makes it the same route (docs/single-page-apps.md).",
      ),
    storage: z
      .array(glob)
      .optional()
      .describe(
        "Globs (* any characters, {a,b} either) of the cookie, localStorage and sessionStorage names the SDK writes; the consent checks look for them. Default: the preset's, measured on the vendor's bundle (docs/presets.md), else none.",
      ),
  })
  .transform((sdk, ctx) => {
    const preset = sdk.preset === undefined || sdk.preset === null ? undefined : PRESETS[sdk.preset];
    const missing = REQUIRED_SDK_FIELDS.filter((field) => sdk[field] === undefined && preset === undefined);
    if (missing.length > 0) {
      // Reported as zod's own missing fields, so that a misspelled key's did-you-mean speaks for them.
      for (const field of missing)
        ctx.addIssue({
          code: "invalid_type",
          expected: "string",
          input: undefined,
          path: [field],
          message: "is required",
        });
      return z.NEVER;
    }
    const page = sdk.page ?? preset?.page ?? [];
    const pageEvent = sdk.pageEvent === undefined ? (preset?.pageEvent ?? null) : sdk.pageEvent;
    if (sdk.pageViews && page.length === 0 && pageEvent === null) {
      ctx.addIssue({
        code: "custom",
        path: ["pageViews"],
        message:
          "needs a way to tell page views: set sdk.page (the method that sends them) or sdk.pageEvent (the event that means one), or a preset",
      });
      return z.NEVER;
    }
    const global = sdk.global ?? preset!.global;
    return {
      preset: sdk.preset ?? null,
      script: sdk.script ?? preset!.script,
      global,
      track: sdk.track ?? preset!.track,
      identify: sdk.identify ?? preset!.identify,
      init: sdk.init ?? preset?.init ?? [],
      traits: sdk.traits === undefined ? (preset?.traits ?? null) : sdk.traits,
      properties: sdk.properties === undefined ? (preset?.properties ?? null) : sdk.properties,
      ready: sdk.ready === undefined ? (preset ? presetReady(preset, global) : null) : sdk.ready,
      collect: sdk.collect ?? preset!.collect,
      deliveryTimeoutMs: sdk.deliveryTimeoutMs ?? preset?.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
      settleMs: sdk.settleMs ?? 250,
      storage: sdk.storage ?? preset?.storage ?? [],
      page,
      pageEvent,
      pageViews: sdk.pageViews ?? false,
      routeQuery: sdk.routeQuery ?? "keep",
    };
  });

/** One line of printable ASCII: a line break would end an HTTP header early. */
const headerText = z
  .string()
  .regex(/^[\x20-\x7e]*$/, { error: "must be printable ASCII on one line (letters, digits, punctuation, spaces)" });

/** `false`, or a mapping: an optional tag's two forms. */
const tagOrFalse = <T extends z.ZodType>(mapping: T, example: string) =>
  z.union([mapping, z.literal(false, { error: `must be false (none) or a mapping like ${example}` })]);

/** How audit traffic identifies itself, and whether its collect requests reach the service (docs/audit-traffic.md). */
const trafficSchema = z.strictObject({
  userAgentSuffix: headerText
    .optional()
    .describe(
      'Appended, after a space, to the device\'s own user agent; default setup-audit/ and this version, "" for none.',
    ),
  header: tagOrFalse(
    z.strictObject({
      name: httpToken("an HTTP header name", "X-Setup-Audit").default("X-Setup-Audit").describe("The header's name."),
      value: headerText.min(1).optional().describe("The header's value; default: the run's id."),
    }),
    "{ name: X-Setup-Audit }",
  )
    .default({ name: "X-Setup-Audit" })
    .describe(
      "A header on every request the page sends to the environment's domain (never to other hosts), or false for none.",
    ),
  queryParam: tagOrFalse(
    z.strictObject({
      name: z
        .string()
        .regex(/^[\w.~-]+$/, { error: "must be letters, digits, '_', '.', '~' or '-' (like setup_audit)" })
        .default("setup_audit")
        .describe("The parameter's name."),
      value: z.string().min(1).optional().describe("The parameter's value; default: the run's id."),
    }),
    "{ name: setup_audit }",
  )
    .default(false)
    .describe(
      "A query parameter added to each audited page's own URL (not to goto steps), or false for none; {} adds setup_audit=RUN_ID.",
    ),
  collect: z
    .enum(["send", "intercept"])
    .default("send")
    .describe(
      "send: collect requests reach the service; intercept: they are answered inside the browser and never reach it (their calls are intercepted).",
    ),
});

const goalSchema = z.strictObject({
  name: z.string().min(1).describe("The goal's name in the service."),
  event: z.string().min(1).describe("The event name the goal's condition must equal exactly."),
});

/**
 * A variation's custom code: inline, or `{ file }` relative to the spec. Either way it becomes
 * `{ file, code }`; the loader reads a file's code (null until then).
 */
const variationCode = z.union([
  z
    .string()
    .min(1)
    .transform((code) => ({ file: null, code })),
  z
    .strictObject({ file: z.string().min(1).describe("A file relative to the spec, read when the spec is loaded.") })
    .transform(({ file }) => ({ file, code: null as string | null })),
]);

/** The parameters of a link that forces a variation (or the control): name → value, one at least. */
const previewQuery = z
  .record(z.string().min(1), z.union([z.string(), z.number(), z.boolean()]).transform(String))
  .refine(
    (query) => Object.keys(query).length > 0,
    "has no parameters: name the preview link's parameters, or leave query out",
  );

const variationSchema = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .refine(
        (name) => name.trim().toLowerCase() !== "control",
        '"control" is the page as it is: give the variation a name of its own',
      )
      .describe("The variation's name: unique within the experiment, and not control (the page as it is)."),
    js: variationCode
      .optional()
      .describe(
        "Code run in the page once its SDK is ready, as the service's preview runs it: inline, or { file } relative to the spec.",
      ),
    css: variationCode
      .optional()
      .describe("A style sheet added to the page once its SDK is ready: inline, or { file } relative to the spec."),
    query: previewQuery
      .optional()
      .describe(
        "The parameters of the service's preview link that force this variation, added to the page's URL: name → value.",
      ),
    id: z
      .union([z.string().min(1), z.number()])
      .transform(String)
      .optional()
      .describe(
        "The value the exposure's `variationProperty` names this variation by (experiment.exposure); default: its 1-based position in the list, as a string.",
      ),
  })
  .refine((variation) => variation.js !== undefined || variation.css !== undefined || variation.query !== undefined, {
    message: "needs js, css or query: a variation with none of them is the control",
  });

const experimentSchema = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .describe('The experiment\'s name: experiment.name fails a vague one ("test 2", "Copy of …").'),
    page: z.string().min(1).describe("The id of the page the experiment runs on."),
    selector: z
      .string()
      .min(1)
      .describe(
        "The CSS selector of the element the experiment changes: it must match exactly one visible element on every viewport.",
      ),
    goals: z
      .array(z.string().min(1))
      .default([])
      .describe("The names of the goals the experiment measures, each one of the spec's goals."),
    variations: z
      .array(variationSchema)
      .default([])
      .describe(
        "The variations to preview, each on every viewport beside the page as it is (the control), with js, css or query, one at least.",
      ),
    control: z
      .strictObject({
        query: previewQuery.describe("The parameters that force the control, added to the page's URL: name → value."),
      })
      .optional()
      .describe(
        "How to force the control, for a site that buckets the unforced page at random: the control the variations are compared with is then the page forced so. Without it, the unforced page is the control.",
      ),
    flag: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The experiment's key in experimentSdk (a flag, gate or experiment name): experiment.assignment checks the SDK evaluated it to one of the experiment's variations on its page, not to its fallback.",
      ),
    exposure: z
      .strictObject({
        event: z.string().min(1).describe("The track call's name (its first argument)."),
        properties: z
          .record(z.string().min(1), z.union([z.string(), z.number(), z.boolean()]))
          .default({})
          .describe(
            "Properties the exposure carries, each equal to this value: they tell this experiment's exposure from another's.",
          ),
        variationProperty: z
          .string()
          .min(1)
          .describe("The property that names the variation shown: a variation's `id`."),
      })
      .optional()
      .describe(
        "The call that tells the service which variation a visitor saw: experiment.exposure checks it fires once, before the goal's event, naming the same variation again after a reload.",
      ),
  })
  .superRefine((experiment, ctx) => {
    const names = new Set<string>();
    experiment.variations.forEach((variation, index) => {
      if (names.has(variation.name))
        ctx.addIssue({
          code: "custom",
          path: ["variations", index, "name"],
          message: `"${variation.name}" is the name of another variation of this experiment`,
        });
      names.add(variation.name);
    });
  });

const pageSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9][\w.-]*$/, "must be a short id of letters, digits, '.', '_' or '-'")
    .describe("A short id that names the page in findings, reports and --page; unique in the spec."),
  path: sitePath.describe("The page's path on the environment's base URL, with its query if any."),
  steps: z
    .array(stepSchema)
    .default([])
    .describe(
      "The page's journey, walked once its SDK is ready (or cannot become so); loading the page's path comes first by itself.",
    ),
  expect: z
    .strictObject({
      track: z
        .array(z.string().min(1))
        .default([])
        .describe("Events the page must track on every viewport (events.expected)."),
      identify: z.boolean().default(false).describe("Whether the page must identify the visitor on every viewport."),
    })
    .optional()
    .describe("What the page must do, journey included, on every viewport."),
});

/** The longest `consent.timeoutMs` a spec may give. */
export const MAX_CONSENT_TIMEOUT_MS = 60_000;

/**
 * How a consent banner is answered: `auto` (a library of consent managers' rules finds and
 * answers it), a selector clicked, or steps. A selector becomes its one click step.
 */
const consentAnswer = (what: string, example: string) =>
  z
    .union([
      z.literal("auto"),
      z
        .string()
        .min(1)
        .transform((selector) => [{ click: selector }]),
      z
        .array(stepSchema)
        .min(1, `needs at least one step: click the button that ${what}`)
        .refine(
          (steps) => steps.every((step) => "click" in step || "fill" in step || "waitFor" in step),
          "acts on the banner (click, fill, waitFor), never waitForEvent, goto, back, forward or waitForUrl: the page's journey comes after consent",
        )
        .refine(
          (steps) => steps.every((step) => !("fill" in step && step.fill.canary === true)),
          "types no canary: canaries are typed in the page's journey, whose traffic is searched for them",
        ),
    ])
    .describe(
      `auto: a library of consent managers' rules finds the banner and ${what}; or a selector clicked (${example}), or steps (click, fill, waitFor), whose first element's being visible means the banner is there.`,
    );

/** The `consent` section: the site asks before it tracks (docs/consent.md). */
const consentSchema = z.strictObject({
  accept: consentAnswer("gives consent", '"#cc-main .cm__btn[data-role=all]"')
    .default("auto")
    .describe(
      "How consent is given on every unit but the reject and GPC ones: auto (default) finds and answers the banner with the rules of @duckduckgo/autoconsent; a selector is clicked; steps are walked. consent.before judges what happened before.",
    ),
  reject: consentAnswer("refuses", '"#cc-main .cm__btn[data-role=necessary]"')
    .optional()
    .describe(
      "How consent is refused: auto, a selector or steps. Adds a reject unit per page × viewport, which refuses, walks the journey and is judged by consent.reject alone.",
    ),
  gpc: z
    .boolean()
    .default(false)
    .describe(
      "Adds a GPC unit per page × viewport: Global Privacy Control on (Sec-GPC: 1 and navigator.globalPrivacyControl), nothing answered; consent.reject warns when it is tracked.",
    ),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .max(MAX_CONSENT_TIMEOUT_MS)
    .default(5000)
    .describe("How long after the page's load the banner is waited for, in milliseconds; default 5000."),
});

const severityOverride = z.enum(["off", "warn", "fail"]);

/** The formats a tracking plan file may be written in; `auto` tells them apart by their shape. */
export const TRACKING_PLAN_FORMATS = ["auto", "setup-audit", "segment", "rudderstack"] as const;

/** The `trackingPlan` section: what each event must carry (docs/tracking-plan.md). */
const trackingPlanSchema = z.strictObject({
  file: z
    .string()
    .min(1)
    .describe(
      "The plan, relative to the spec's folder: setup-audit's format (YAML or JSON), a Segment Protocols export (JSON), or a RudderStack rudder-cli catalog folder.",
    ),
  format: z
    .enum(TRACKING_PLAN_FORMATS)
    .default("auto")
    .describe("The plan's format; auto (default) tells them apart by their shape."),
  unplanned: severityOverride
    .default("warn")
    .describe("What a track whose name the plan lacks gives in plan.events: warn (default), fail, or off (a skip)."),
});

export const auditSpecSchema = z
  .strictObject({
    workspace: z
      .string()
      .min(1)
      .describe("The workspace the project must belong to in the service (api.workspace compares it by name or id)."),
    project: z.string().min(1).describe("The project's name, as the console, summary.json and the report show it."),
    environments: z
      .record(z.string().regex(/^[\w-]+$/, "environment names are letters, digits, '_' or '-'"), environmentSchema)
      .refine((envs) => Object.keys(envs).length > 0, "needs at least one environment")
      .describe(
        "The environments, by name (letters, digits, '_' or '-'): staging, production, each a project of the service with a key of its own.",
      ),
    defaultEnvironment: z
      .string()
      .optional()
      .describe("The environment that run audits without --env; required when there are several."),
    api: apiSchema
      .optional()
      .describe(
        "The service's HTTP API, read once per spec × environment to cross-check the project, its workspace and goals and its ingested events; without it the api.* checks skip.",
      ),
    report: reportSchema
      .optional()
      .describe(
        "Where the service's report data comes from (path or file, one of them) and how the SRM test judges it; report.warnings skips without it.",
      ),
    sdk: sdkSchema.describe(
      "The SDK the pages must load: a preset, the fields it fills, or both. Without a preset, script, global, track, identify and collect are required.",
    ),
    experimentSdk: experimentSdkSchema
      .optional()
      .describe(
        "The SDK that assigns each visitor a variation and logs the exposure itself (Statsig), when it is not sdk: experiment.assignment reads its evaluations of each experiment's flag.",
      ),
    consent: consentSchema
      .optional()
      .describe(
        "The site asks before it tracks: each page × viewport is judged before consent (consent.before), then consent is given and the audit goes on; reject and gpc add units judged by consent.reject. Without it there is no consent step at all.",
      ),
    traffic: trafficSchema
      .prefault({})
      .describe("How audit traffic says what it is, and whether its collect requests reach the service."),
    viewports: z
      .array(z.string().min(1))
      .min(1)
      .default(["desktop", "mobile"])
      .describe("The viewports every page is audited on: desktop, mobile or a Playwright device name (iPhone 13)."),
    screenshots: z
      .enum(["on", "off", "on-failure"])
      .default("on")
      .describe("A screenshot per page × viewport: always, never, or only where a check failed or warned."),
    goals: z
      .array(goalSchema)
      .default([])
      .describe("The project's goals, each counting the events whose name equals its condition exactly."),
    experiments: z
      .array(experimentSchema)
      .default([])
      .describe("The experiments to check before launch: their names, goals, selector and variations."),
    identify: z
      .strictObject({
        required: z
          .array(z.string().min(1))
          .default([])
          .describe(
            "The attributes each identifying page × viewport must send (identify.attributes); null counts as missing.",
          ),
        allowPersonalData: z
          .array(z.string().min(1))
          .default([])
          .describe(
            "Attribute keys (a top-level key or a dotted path) exempt from both of identify.pii's detectors, by key name and by value.",
          ),
      })
      .default({ required: [], allowPersonalData: [] })
      .describe("What identify calls must send, and what personal data they may."),
    trackingPlan: trackingPlanSchema
      .optional()
      .describe(
        "The tracking plan the calls' properties and identify attributes are judged against (plan.properties, plan.events, plan.coverage); without it the plan.* checks give no finding.",
      ),
    pages: z
      .array(pageSchema)
      .min(1, "needs at least one page")
      .describe("The pages to audit, each on every viewport."),
    checks: z
      .partialRecord(z.enum(CHECK_IDS), severityOverride)
      .default({})
      .describe(
        "Severity overrides by check id: off (its findings are kept as skip), warn or fail (the status of its failing findings).",
      ),
  })
  .superRefine((spec, ctx) => {
    const envNames = Object.keys(spec.environments);
    if (spec.defaultEnvironment === undefined && envNames.length > 1) {
      ctx.addIssue({
        code: "custom",
        path: ["defaultEnvironment"],
        message: `is required when there are several environments (one of: ${envNames.join(", ")})`,
      });
    }
    // With no environment at all, "needs at least one environment" already says what to fix.
    if (spec.defaultEnvironment !== undefined && envNames.length > 0 && !envNames.includes(spec.defaultEnvironment)) {
      ctx.addIssue({
        code: "custom",
        path: ["defaultEnvironment"],
        message: `names no environment (one of: ${envNames.join(", ")})`,
      });
    }
    const seenKeys = new Map<string, string>();
    for (const [name, env] of Object.entries(spec.environments)) {
      const other = seenKeys.get(env.key);
      if (other !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["environments", name, "key"],
          message: `is the same key as environment "${other}": staging and production must never share a key`,
        });
      }
      seenKeys.set(env.key, name);
      if (env.experimentKey !== undefined) {
        const sharing = Object.entries(spec.environments).find(
          ([otherName, otherEnv]) => otherName !== name && otherEnv.experimentKey === env.experimentKey,
        );
        if (sharing !== undefined && envNames.indexOf(sharing[0]) < envNames.indexOf(name))
          ctx.addIssue({
            code: "custom",
            path: ["environments", name, "experimentKey"],
            message: `is the same key as environment "${sharing[0]}": each environment's experimentation SDK must have its own key`,
          });
        if (spec.experimentSdk === undefined)
          ctx.addIssue({
            code: "custom",
            path: ["environments", name, "experimentKey"],
            message: "needs experimentSdk: name the SDK it is the key of (experimentSdk.preset), or leave it out",
          });
      }
      // An unparsable baseUrl already has its own error.
      const domain = URL.canParse(env.baseUrl) ? environmentDomain(env) : undefined;
      if (domain !== undefined && !isOnDomain(env.baseUrl, domain)) {
        ctx.addIssue({
          code: "custom",
          path: ["environments", name, "baseUrl"],
          message: `is not on the environment's domain "${domain}" or a subdomain of it: every audited URL must stay on the domain`,
        });
      }
    }
    if (spec.report?.path !== undefined && !spec.api) {
      ctx.addIssue({
        code: "custom",
        path: ["report", "path"],
        message:
          "needs the api section (baseUrl, keyEnv) to ask the service; or point report.file at an exported JSON file instead",
      });
    }
    const experimentSdk = spec.experimentSdk;
    const logs = experimentSdk !== undefined && EXPERIMENT_PRESETS[experimentSdk.preset].logged !== undefined;
    // A logging SDK is the analytics SDK itself, whose events it is read from; any other is an SDK of its own.
    if (experimentSdk !== undefined && logs && experimentSdk.global !== spec.sdk.global) {
      ctx.addIssue({
        code: "custom",
        path: ["experimentSdk", "preset"],
        message: `"${experimentSdk.preset}" reads the flags from the analytics SDK's own events, but sdk's global is "${spec.sdk.global}", not "${experimentSdk.global}": set sdk's preset to ${experimentSdk.preset}, or pick the experimentation SDK the site runs`,
      });
    }
    if (experimentSdk !== undefined && !logs && experimentSdk.global === spec.sdk.global) {
      ctx.addIssue({
        code: "custom",
        path: ["experimentSdk"],
        message: `has sdk's global "${spec.sdk.global}": only an experimentation SDK that logs its flags through the analytics SDK (posthog) may be the analytics SDK itself; leave experimentSdk out`,
      });
    }
    const pageIds = new Set<string>();
    spec.pages.forEach((page, index) => {
      if (pageIds.has(page.id)) {
        ctx.addIssue({ code: "custom", path: ["pages", index, "id"], message: `"${page.id}" is used by another page` });
      }
      pageIds.add(page.id);
    });
    spec.experiments.forEach((experiment, index) => {
      if (experiment.flag !== undefined && spec.experimentSdk === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["experiments", index, "flag"],
          message: "needs experimentSdk: name the SDK that evaluates it (experimentSdk.preset), or leave it out",
        });
      }
      if (!pageIds.has(experiment.page)) {
        ctx.addIssue({
          code: "custom",
          path: ["experiments", index, "page"],
          message: `names no page of this spec (pages: ${[...pageIds].join(", ")})`,
        });
      }
    });
  });

/** A validated audit spec, defaults applied. */
export type AuditSpec = z.output<typeof auditSpecSchema>;
/** One environment of a spec. */
export type Environment = AuditSpec["environments"][string];
/** One page of a spec. */
export type PageSpec = AuditSpec["pages"][number];
/** One journey step of a page. */
export type Step = PageSpec["steps"][number];
/** What a `fill` step types, and where. */
export type FillSpec = Extract<Step, { fill: unknown }>["fill"];
/** How the audit gets into a closed environment. */
export type AuthSpec = NonNullable<Environment["auth"]>;
/** The SDK description of a spec. */
export type SdkSpec = AuditSpec["sdk"];
/** The experimentation SDK of a spec, its preset's fields resolved. */
export type ExperimentSdkSpec = NonNullable<AuditSpec["experimentSdk"]>;
/** How a spec tags its audit traffic and whether collect requests reach the service. */
export type TrafficSpec = AuditSpec["traffic"];
/** One experiment of a spec. */
export type ExperimentSpec = AuditSpec["experiments"][number];
/** One variation of an experiment. */
export type VariationSpec = ExperimentSpec["variations"][number];
/** The consent section of a spec, defaults applied. */
export type ConsentSpec = NonNullable<AuditSpec["consent"]>;
/** A per-check severity override. */
export type SeverityOverride = z.output<typeof severityOverride>;
