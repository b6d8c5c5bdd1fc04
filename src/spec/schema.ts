import { z } from "zod";
import { CHECK_IDS } from "../checks/index.js";
import { environmentDomain, isOnDomain } from "../url/domain.js";
import { PRESET_NAMES, PRESETS, presetReady } from "./presets.js";

/** A path on the audited site: absolute path, optionally with query and hash. */
const sitePath = z
  .string()
  .regex(/^\/(?!\/)/, { error: "must be a path on the site that starts with a single '/', like /signup", abort: true })
  // URL parsers read `/\\host` (or a tab after the slash) as `//host`: such a path would leave the site.
  .refine((path) => new URL(path, "http://site.invalid").host === "site.invalid", "must be a path on the site, not a way to another host");

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
const httpToken = (what: string, example: string) => z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: `must be ${what} (letters, digits and - only, like ${example})` });

/** What a journey types: a value written in the spec, or a secret from the environment variable it names. */
const fillSchema = z
  .strictObject({
    selector: z.string().min(1),
    /** The text typed, as written (not a secret: it shows in the spec). */
    value: z.string().optional(),
    /** The NAME of the environment variable that holds the text typed (a password): never in the spec or any output. */
    valueEnv: variableName("the text to type", "STAGING_PASSWORD").optional(),
    /** The value is a canary: searched in all outgoing traffic. */
    canary: z.boolean().optional(),
  })
  .refine((fill) => (fill.value === undefined) !== (fill.valueEnv === undefined), {
    message: "needs value (the text typed, as written) or valueEnv (the NAME of the variable that holds it, for a secret), one of them",
    ...nothingElseWrong,
  });

/** One step of a journey; `goto` is implicit for the page's own path. */
const stepSchema = z.union([
  z.strictObject({ fill: fillSchema }),
  z.strictObject({ click: z.string().min(1) }),
  z.strictObject({ waitForEvent: z.string().min(1) }),
  z.strictObject({ waitFor: z.string().min(1) }),
  z.strictObject({ goto: sitePath }),
]);

/** A host the login may pass through: a name alone, without scheme, port or path. */
const hostName = z
  .string()
  .regex(/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/, { error: "must be a host name, like sso.example.test (no scheme, port or path)" })
  .transform((host) => host.toLowerCase());

/** Headers the browser writes itself: a value of the spec's own would break the site's session or routing. */
const BROWSER_HEADERS = new Set(["host", "cookie", "content-length", "connection"]);

/** How the audit gets into a closed site (README: Closed sites); every secret is an environment variable's NAME. */
const authSchema = z
  .strictObject({
    /** HTTP Basic credentials, sent to the base URL's origin only. */
    basic: z.strictObject({ usernameEnv: variableName("the user name", "STAGING_USER"), passwordEnv: variableName("the password", "STAGING_PASSWORD") }).optional(),
    /** Headers sent to the base URL's origin only: name → the variable that holds the value. */
    headers: z
      .record(
        httpToken("an HTTP header name", "X-Preview-Token").refine((name) => !BROWSER_HEADERS.has(name.toLowerCase()), "is a header the browser writes itself: use auth.cookies for cookies"),
        variableName("the header's value", "PREVIEW_TOKEN"),
      )
      .refine((headers) => Object.keys(headers).length > 0, "names no header: give Header-Name: VARIABLE_NAME pairs, or leave headers out")
      .optional(),
    /** Cookies set host-only on the base URL's host. */
    cookies: z.array(z.strictObject({ name: httpToken("a cookie name", "preview"), valueEnv: variableName("the cookie's value", "PREVIEW_COOKIE") })).min(1).optional(),
    /** A Playwright storage-state file, relative to the spec: the state every page (and the login) starts from. */
    storageState: z.string().min(1).optional(),
    /** A journey run once per viewport before the pages: the state it ends with starts every page. */
    login: z
      .strictObject({
        /** The login page's path: where the journey starts, and where a page the site sends back has been kept out. */
        path: sitePath,
        /** Other hosts the login may pass through (a single sign-on provider); nothing else off the site's domain is let through. */
        hosts: z.array(hostName).default([]),
        steps: z
          .array(stepSchema)
          .min(1, "needs at least one step: fill the form, submit it, and waitFor what only a signed-in page shows")
          .refine((steps) => steps.every((step) => !("waitForEvent" in step)), "waits for elements (waitFor), not for SDK calls (waitForEvent): the login is no audited page"),
      })
      .optional(),
  })
  .refine((auth) => Object.values(auth).some((way) => way !== undefined), {
    message: "names no way in: give basic, headers, cookies, storageState or login (see the README's Closed sites), or leave auth out",
    ...nothingElseWrong,
  });

const environmentSchema = z.strictObject({
  /** The project key this environment's pages must install. */
  key: z.string().min(1),
  /** The service's project key for the api.* checks and `{project}`, when the page's SDK key is a vendor's; default `key`. */
  projectKey: z.string().min(1).optional(),
  baseUrl: httpUrl,
  /** Domain audited URLs must stay on; default: the baseUrl's host, subdomains included. */
  domain: z.string().min(1).optional(),
  /** How the audit gets into the site when it is closed. */
  auth: authSchema.optional(),
});

/** A path under api.baseUrl, with `{project}` (the environment's key) and `{projectId}` as the only placeholders. */
const apiPath = z
  .string()
  .startsWith("/")
  .refine(
    (path) => [...path.matchAll(/\{([^}]*)\}/g)].every(([, name]) => name === "project" || name === "projectId"),
    "may only use the placeholders {project} (the environment's key) and {projectId} (the listed project's id)",
  );

/** Overrides of the API client's retry policy (defaults in src/api/retry.ts and the README). */
const apiRetrySchema = z.strictObject({
  attempts: z.number().int().min(1).max(10).optional(),
  baseDelayMs: z.number().int().min(0).max(60_000).optional(),
  maxDelayMs: z.number().int().min(0).max(300_000).optional(),
  totalTimeoutMs: z.number().int().positive().max(600_000).optional(),
  timeoutMs: z.number().int().positive().max(300_000).optional(),
});

const apiSchema = z.strictObject({
  baseUrl: httpUrl,
  keyEnv: variableName("the key", "SERVICE_API_KEY"),
  goalsPath: apiPath.optional(),
  recentEventsPath: apiPath.optional(),
  retry: apiRetrySchema.optional(),
});

/** Settings of the sample-ratio-mismatch test on the report's visitor counts (README: Report warnings). */
const srmSchema = z.strictObject({
  /** Significance level: a p-value below it is a mismatch. */
  alpha: z.number().gt(0).lt(1).default(0.001),
  /** Visitors each variation must expect (total × planned share) before the test judges. */
  minimumVisitors: z.number().int().min(1).default(100),
});


/** A misspelled key ("fiel: …") already says what is wrong: the either/or rule would only repeat it. */
const keysAreKnown = { when: (payload: { issues: readonly { code?: string }[] }) => payload.issues.every((issue) => issue.code !== "unrecognized_keys") };

/** Where the service's report data comes from — an API path or an exported JSON file — and how SRM is judged. */
const reportSchema = z
  .strictObject({
    /** A path under api.baseUrl, like goalsPath. */
    path: apiPath.optional(),
    /** An exported JSON file, relative to the spec file. */
    file: z.string().min(1).optional(),
    srm: srmSchema.prefault({}),
  })
  .refine((report) => report.path !== undefined || report.file !== undefined, {
    message: "needs path (an API path, like /v1/projects/{project}/report) or file (an exported JSON file, relative to the spec)",
    ...keysAreKnown,
  })
  .refine((report) => report.path === undefined || report.file === undefined, {
    message: "names both path and file: keep the one the report data should come from",
    ...keysAreKnown,
  });

/** A name, or a dotted path of names through nested objects; `example` is what the error shows. */
const dottedPath = (what: string, example: string) => z.string().regex(/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/, `must be a ${what} or a dotted path to one, like ${example}`);

/** A method on the SDK global: a name, or a dotted path for nested objects (`people.set`). */
const methodPath = dottedPath("method name", "track or people.set");

/** A property inside an argument (`_properties.$set`). */
const propertyPath = dottedPath("property name", "_properties.$set");

/** One method path or several, always read as a list. */
const methodPaths = (minimum: number) => z.union([methodPath, z.array(methodPath).min(minimum)]).transform((paths) => (typeof paths === "string" ? [paths] : paths));

const REQUIRED_SDK_FIELDS = ["script", "global", "track", "identify", "collect"] as const;

/** The bound on waiting for readiness and batched delivery without a preset or a value of the spec's own. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 6000;
/** The longest `sdk.deliveryTimeoutMs` a spec may give. */
export const MAX_DELIVERY_TIMEOUT_MS = 120_000;

/** The `sdk` section: a preset and/or the fields it fills, resolved into every field. */
export const sdkSchema = z
  .strictObject({
    /** A vendor whose defaults fill every field not given (src/spec/presets.ts). */
    preset: z.enum(PRESET_NAMES).nullable().optional(),
    /** URL glob of the SDK script. */
    script: z.string().min(1).optional(),
    /** Window global the SDK defines. */
    global: z.string().regex(/^[A-Za-z_$][\w$]*$/, "must be a JavaScript identifier").optional(),
    /** Method path(s) of track-kind calls. */
    track: methodPaths(1).optional(),
    /** Method path(s) of identify-kind calls; their object arguments are the visitor's attributes. */
    identify: methodPaths(1).optional(),
    /** Method path(s) whose first string argument is the installed key. */
    init: methodPaths(0).optional(),
    /** Where an identify-kind call's argument keeps its attributes when it is a builder (Amplitude's `_properties.$set`); null: the argument itself. */
    traits: propertyPath.nullable().optional(),
    /** JS expression, true once the SDK is ready; without it, readiness is judged from the global (README). */
    ready: z.string().min(1).nullable().optional(),
    /** URL glob of the requests that deliver events. */
    collect: z.string().min(1).optional(),
    /** Bound on waiting for readiness and batched delivery, in milliseconds. */
    deliveryTimeoutMs: z.number().int().positive().max(MAX_DELIVERY_TIMEOUT_MS).optional(),
    /** Quiet window (no new call or collect request) that ends a page, in milliseconds. */
    settleMs: z.number().int().min(0).max(10_000).optional(),
  })
  .transform((sdk, ctx) => {
    const preset = sdk.preset === undefined || sdk.preset === null ? undefined : PRESETS[sdk.preset];
    const missing = REQUIRED_SDK_FIELDS.filter((field) => sdk[field] === undefined && preset === undefined);
    if (missing.length > 0) {
      // Reported as zod's own missing fields, so that a misspelled key's did-you-mean speaks for them.
      for (const field of missing) ctx.addIssue({ code: "invalid_type", expected: "string", input: undefined, path: [field], message: "is required" });
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
      ready: sdk.ready === undefined ? (preset ? presetReady(preset, global) : null) : sdk.ready,
      collect: sdk.collect ?? preset!.collect,
      deliveryTimeoutMs: sdk.deliveryTimeoutMs ?? preset?.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
      settleMs: sdk.settleMs ?? 250,
    };
  });

/** One line of printable ASCII: a line break would end an HTTP header early. */
const headerText = z.string().regex(/^[\x20-\x7e]*$/, { error: "must be printable ASCII on one line (letters, digits, punctuation, spaces)" });

/** `false`, or a mapping: an optional tag's two forms. */
const tagOrFalse = <T extends z.ZodType>(mapping: T, example: string) =>
  z.union([mapping, z.literal(false, { error: `must be false (none) or a mapping like ${example}` })]);

/** How audit traffic identifies itself, and whether its collect requests reach the service (README: Audit traffic). */
const trafficSchema = z.strictObject({
  /** Appended after a space to the device's user agent; default `setup-audit/VERSION`, "" for none. */
  userAgentSuffix: headerText.optional(),
  /** A header on every request to the audited site's domain; its value defaults to the run's id. */
  header: tagOrFalse(
    z.strictObject({
      name: httpToken("an HTTP header name", "X-Setup-Audit").default("X-Setup-Audit"),
      value: headerText.min(1).optional(),
    }),
    "{ name: X-Setup-Audit }",
  ).default({ name: "X-Setup-Audit" }),
  /** A query parameter on each audited page's URL; its value defaults to the run's id. */
  queryParam: tagOrFalse(
    z.strictObject({ name: z.string().regex(/^[\w.~-]+$/, { error: "must be letters, digits, '_', '.', '~' or '-' (like setup_audit)" }).default("setup_audit"), value: z.string().min(1).optional() }),
    "{ name: setup_audit }",
  ).default(false),
  /** `send`: collect requests reach the service; `intercept`: they are answered inside the browser. */
  collect: z.enum(["send", "intercept"]).default("send"),
});

const goalSchema = z.strictObject({
  name: z.string().min(1),
  /** The event name the goal's condition must equal exactly. */
  event: z.string().min(1),
});

/**
 * A variation's custom code: inline, or `{ file }` relative to the spec. Either way it becomes
 * `{ file, code }`; the loader reads a file's code (null until then).
 */
const variationCode = z.union([
  z.string().min(1).transform((code) => ({ file: null, code })),
  z.strictObject({ file: z.string().min(1) }).transform(({ file }) => ({ file, code: null as string | null })),
]);

const variationSchema = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .refine((name) => name.trim().toLowerCase() !== "control", "\"control\" is the page as it is: give the variation a name of its own"),
    js: variationCode.optional(),
    css: variationCode.optional(),
    /** The parameters of the service's preview link that force this variation, added to the page's URL. */
    query: z
      .record(z.string().min(1), z.union([z.string(), z.number(), z.boolean()]).transform(String))
      .refine((query) => Object.keys(query).length > 0, "has no parameters: name the preview link's parameters, or leave query out")
      .optional(),
  })
  .refine((variation) => variation.js !== undefined || variation.css !== undefined || variation.query !== undefined, {
    message: "needs js, css or query: a variation with none of them is the control",
  });

const experimentSchema = z
  .strictObject({
    name: z.string().min(1),
    page: z.string().min(1),
    selector: z.string().min(1),
    goals: z.array(z.string().min(1)).default([]),
    /** The variations to preview; the control is the page as it is. */
    variations: z.array(variationSchema).default([]),
  })
  .superRefine((experiment, ctx) => {
    const names = new Set<string>();
    experiment.variations.forEach((variation, index) => {
      if (names.has(variation.name)) ctx.addIssue({ code: "custom", path: ["variations", index, "name"], message: `"${variation.name}" is the name of another variation of this experiment` });
      names.add(variation.name);
    });
  });

const pageSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9][\w.-]*$/, "must be a short id of letters, digits, '.', '_' or '-'"),
  path: sitePath,
  steps: z.array(stepSchema).default([]),
  expect: z
    .strictObject({
      track: z.array(z.string().min(1)).default([]),
      identify: z.boolean().default(false),
    })
    .optional(),
});

const severityOverride = z.enum(["off", "warn", "fail"]);

export const auditSpecSchema = z
  .strictObject({
    workspace: z.string().min(1),
    project: z.string().min(1),
    environments: z
      .record(z.string().regex(/^[\w-]+$/, "environment names are letters, digits, '_' or '-'"), environmentSchema)
      .refine((envs) => Object.keys(envs).length > 0, "needs at least one environment"),
    defaultEnvironment: z.string().optional(),
    api: apiSchema.optional(),
    report: reportSchema.optional(),
    sdk: sdkSchema,
    traffic: trafficSchema.prefault({}),
    viewports: z.array(z.string().min(1)).min(1).default(["desktop", "mobile"]),
    /** Screenshots per page × viewport: always, never, or only where a check failed or warned. */
    screenshots: z.enum(["on", "off", "on-failure"]).default("on"),
    goals: z.array(goalSchema).default([]),
    experiments: z.array(experimentSchema).default([]),
    identify: z
      .strictObject({
        required: z.array(z.string().min(1)).default([]),
        allowPersonalData: z.array(z.string().min(1)).default([]),
      })
      .default({ required: [], allowPersonalData: [] }),
    pages: z.array(pageSchema).min(1, "needs at least one page"),
    checks: z.partialRecord(z.enum(CHECK_IDS), severityOverride).default({}),
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
        message: "needs the api section (baseUrl, keyEnv) to ask the service; or point report.file at an exported JSON file instead",
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
/** How a spec tags its audit traffic and whether collect requests reach the service. */
export type TrafficSpec = AuditSpec["traffic"];
/** One experiment of a spec. */
export type ExperimentSpec = AuditSpec["experiments"][number];
/** One variation of an experiment. */
export type VariationSpec = ExperimentSpec["variations"][number];
/** A per-check severity override. */
export type SeverityOverride = z.output<typeof severityOverride>;
