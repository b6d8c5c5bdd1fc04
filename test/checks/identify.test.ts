import { expect, test } from "@playwright/test";
import type { CanarySighting } from "../../src/artifacts/types.js";
import { identifyAttributes } from "../../src/checks/identify/attributes.js";
import { identifyPii } from "../../src/checks/identify/pii.js";
import { callWith, contextOf, pageWith, specWith } from "../support/artifacts.js";

const identify = (properties: unknown, name: string | null = "u_3f9a2c") =>
  callWith({ kind: "identify", name, properties });
const segments = { plan: "pro", account_type: "business" };
const withRequired = (extra: Record<string, unknown> = {}) =>
  specWith({ identify: { required: ["plan", "account_type"] }, ...extra });

test.describe("identify.attributes", () => {
  test("passes when every call carries the required attributes as simple values", () => {
    const [finding] = identifyAttributes.evaluate(
      contextOf([pageWith({ calls: [identify({ ...segments, seats: 12, trial: false })] })], withRequired()),
    );
    expect(finding).toMatchObject({ check: "identify.attributes", status: "pass", page: "home", viewport: "desktop" });
    expect(finding?.message).toBe("1 identify call carries `plan`, `account_type` and only simple values.");
  });

  test("fails on a missing required attribute, with null counting as missing", () => {
    const [finding] = identifyAttributes.evaluate(
      contextOf([pageWith({ calls: [identify({ plan: "pro", account_type: null })] })], withRequired()),
    );
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      "On desktop: `account_type` is missing. Send every attribute in identify.required, each as a string, number or boolean (flatten objects into keys like `company_size`).",
    );
  });

  test("fails on a nested object or array and names the key, even for a key allowed to be personal", () => {
    const spec = withRequired({ identify: { required: ["plan"], allowPersonalData: ["company"] } });
    const [finding] = identifyAttributes.evaluate(
      contextOf([pageWith({ calls: [identify({ plan: "pro", company: { size: 12 }, tags: ["a"] })] })], spec),
    );
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain(
      "`company` is a nested object, not a string, number or boolean; `tags` is an array, not a string, number or boolean.",
    );
    expect(finding?.evidence).toEqual({
      required: ["plan"],
      identifyCalls: 1,
      methods: "identify",
      problems: [
        "`company` is a nested object, not a string, number or boolean",
        "`tags` is an array, not a string, number or boolean",
      ],
    });
  });

  test("judges the page's identify-kind calls together: an attribute one call carries is there, and values are never quoted", () => {
    const calls = [identify(segments), identify({ plan: "jane@example.org" })];
    const [finding] = identifyAttributes.evaluate(contextOf([pageWith({ calls })], withRequired()));
    expect(finding?.status).toBe("pass");
    expect(finding?.message).toBe(
      "2 identify-kind calls (identify) together carry `plan`, `account_type` and only simple values.",
    );
    expect(JSON.stringify(finding)).not.toContain("jane@example.org");
  });

  test("passes Mixpanel's split: identify with a user id only, the traits through people.set", () => {
    const calls = [
      identify(null, "user-123"),
      callWith({ kind: "identify", method: "people.set", name: null, properties: segments }),
    ];
    const [finding] = identifyAttributes.evaluate(contextOf([pageWith({ calls })], withRequired()));
    expect(finding).toMatchObject({
      status: "pass",
      message:
        "2 identify-kind calls (identify, people.set) together carry `plan`, `account_type` and only simple values.",
    });
  });

  test("names an attribute that none of several calls carries, and a nested value any one of them sends", () => {
    const calls = [
      identify({ plan: "pro" }),
      callWith({ kind: "identify", method: "people.set", name: null, properties: { address: { city: "London" } } }),
    ];
    const [finding] = identifyAttributes.evaluate(contextOf([pageWith({ calls })], withRequired()));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain(
      "`account_type` is missing from all 2 identify-kind calls; `address` is a nested object, not a string, number or boolean.",
    );
    expect(JSON.stringify(finding)).not.toContain("London");
  });

  test("fails on a call without attributes, or with attributes that are no object", () => {
    const [none] = identifyAttributes.evaluate(contextOf([pageWith({ calls: [identify(null)] })], withRequired()));
    expect(none?.message).toContain("no attributes were sent, so `plan`, `account_type` are missing");
    const [text] = identifyAttributes.evaluate(contextOf([pageWith({ calls: [identify("pro")] })], withRequired()));
    expect(text?.message).toContain("the attributes of identify(…) are a string, not an object of key/value pairs");
  });

  test("skips a page with no identify call, or only a lost one whose attributes are unknown", () => {
    const findings = identifyAttributes.evaluate(
      contextOf(
        [
          pageWith({ calls: [callWith()] }),
          pageWith({ viewport: "mobile", calls: [callWith({ kind: "identify", state: "lost", properties: null })] }),
        ],
        withRequired(),
      ),
    );
    expect(findings.map((finding) => [finding.status, finding.message])).toEqual([
      ["skip", "The page made no identify call."],
      ["skip", "The page made no identify call."],
    ]);
  });

  test("skips a page that did not load", () => {
    const [finding] = identifyAttributes.evaluate(
      contextOf([pageWith({ loadError: "HTTP 500", calls: [] })], withRequired()),
    );
    expect(finding?.status).toBe("skip");
  });
});

const canarySpec = specWith({
  pages: [
    {
      id: "signup",
      path: "/signup",
      steps: [{ fill: { selector: "#email", value: "qa@example.test", canary: true } }, { click: "#submit" }],
    },
  ],
});
const sighting = (overrides: Partial<CanarySighting> = {}): CanarySighting => ({
  step: 0,
  host: "tracker.example",
  where: "body",
  form: "sha256",
  ...overrides,
});

test.describe("identify.pii", () => {
  test("passes on segment attributes and an opaque user id", () => {
    const [finding] = identifyPii.evaluate(contextOf([pageWith({ calls: [identify(segments)] })]));
    expect(finding).toMatchObject({
      check: "identify.pii",
      status: "pass",
      message: "1 identify call(s) carry no personal data.",
    });
  });

  test("fails on personal data by value and by key, masked, never raw", () => {
    const [finding] = identifyPii.evaluate(
      contextOf([
        pageWith({ calls: [identify({ ...segments, contact: "jane.doe@example.org", first_name: "Jane" })] }),
      ]),
    );
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      "On desktop: `contact` holds an email address (j***@e***.org); `first_name` is named like a person's name (J***). " +
        "Stop sending personal data with identify (use an opaque user id; list a key in identify.allowPersonalData only when sending it is agreed).",
    );
    expect(JSON.stringify(finding)).not.toContain("jane.doe@example.org");
    expect(JSON.stringify(finding)).not.toContain('Jane"');
  });

  test("names the encoding a value hid in", () => {
    const [finding] = identifyPii.evaluate(
      contextOf([
        pageWith({ calls: [identify({ ...segments, ref: Buffer.from("+44 20 7946 0958").toString("base64") })] }),
      ]),
    );
    expect(finding?.message).toContain("`ref` holds a phone number (+** ** **** **58, base64)");
  });

  test("fails on an email used as user id, which allowPersonalData cannot exempt", () => {
    const spec = specWith({ identify: { allowPersonalData: ["email", "user id", "(user id)"] } });
    const [finding] = identifyPii.evaluate(
      contextOf([pageWith({ calls: [identify(segments, "jane@example.org")] })], spec),
    );
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toContain("the user id is an email address (j***@e***.org)");
    expect(JSON.stringify(finding)).not.toContain("jane@example.org");
  });

  test("exempts the keys in identify.allowPersonalData", () => {
    const spec = specWith({ identify: { allowPersonalData: ["email"] } });
    const [finding] = identifyPii.evaluate(
      contextOf([pageWith({ calls: [identify({ ...segments, email: "jane@example.org" })] })], spec),
    );
    expect(finding?.status).toBe("pass");
  });

  test("reports the same attribute once across several calls", () => {
    const calls = [identify({ email: "jane@example.org" }), identify({ email: "jane@example.org" })];
    const [finding] = identifyPii.evaluate(contextOf([pageWith({ calls })]));
    expect(finding?.evidence.personalData).toEqual([
      { key: "email", kind: "email", by: "value", encoding: "plain", masked: "j***@e***.org" },
    ]);
  });

  test("fails when the canary value left in a request, naming the host, the form and the field", () => {
    const page = pageWith({
      page: "signup",
      canarySightings: [sighting(), sighting({ host: "cdn.example", where: "url", form: "url-encoded" })],
    });
    const [finding] = identifyPii.evaluate(contextOf([page], canarySpec));
    expect(finding?.status).toBe("fail");
    expect(finding?.message).toBe(
      "On desktop: the canary value typed into `#email` (step 1) was sent to tracker.example in the request body, hashed as sha256; " +
        "the canary value typed into `#email` (step 1) was sent to cdn.example in the request URL, url-encoded. " +
        "Find the script that reads the form field and stop it sending the value.",
    );
    expect(finding?.evidence.canaryLeaks).toEqual([
      { step: 1, host: "tracker.example", where: "body", form: "sha256", field: "#email" },
      { step: 1, host: "cdn.example", where: "url", form: "url-encoded", field: "#email" },
    ]);
    expect(JSON.stringify(finding)).not.toContain("qa@example.test");
  });

  test("passes a canary page whose value stayed put, though it made no identify call", () => {
    const [finding] = identifyPii.evaluate(contextOf([pageWith({ page: "signup" })], canarySpec));
    expect(finding).toMatchObject({ status: "pass", message: "The canary value of step 1 left in no request." });
  });

  test("skips a page with no identify call and no canary, and a page that did not load", () => {
    const findings = identifyPii.evaluate(
      contextOf([pageWith(), pageWith({ page: "signup", loadError: "timeout" })], canarySpec),
    );
    expect(findings.map((finding) => [finding.page, finding.status])).toEqual([
      ["home", "skip"],
      ["signup", "skip"],
    ]);
  });
});
