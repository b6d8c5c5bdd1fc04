import { expect, test } from "@playwright/test";
import {
  detectPersonalValue,
  findPersonalData,
  maskValue,
  passesLuhn,
  personalDataKindOfKey,
  redactPersonalData,
  type PersonalDataEncoding,
  type PersonalDataKind,
} from "../../src/privacy/personal-data.js";

const base64 = (text: string) => Buffer.from(text).toString("base64");
const base64url = (text: string) => Buffer.from(text).toString("base64url");

/** Values that are personal data: the kind, and the encoding the detector had to see through. */
const POSITIVE: [string, PersonalDataKind, PersonalDataEncoding][] = [
  ["jane@example.org", "email", "plain"],
  ["Jane.Doe+promo@mail.example.co.uk", "email", "plain"],
  ["JANE@EXAMPLE.ORG", "email", "plain"],
  ["mailto:jane@example.org", "email", "plain"],
  ["Jane Doe <jane@example.org>", "email", "plain"],
  ["https://shop.example.test/welcome?ref=mail&email=jane%40example.org", "email", "url-encoded"],
  ["jane%40example.org", "email", "url-encoded"],
  [base64("jane@example.org"), "email", "base64"],
  [base64url('{"email":"jane@example.org","plan":"pro"}'), "email", "base64"],
  [encodeURIComponent(base64("jane@example.org")), "email", "url-encoded"],
  ["+44 20 7946 0958", "phone", "plain"],
  ["+1 (555) 123-4567", "phone", "plain"],
  ["+4915112345678", "phone", "plain"],
  ["tel:+33612345678", "phone", "plain"],
  ["0044 20 7946 0958", "phone", "plain"],
  ["(555) 123-4567", "phone", "plain"],
  ["555-123-4567", "phone", "plain"],
  ["555.123.4567", "phone", "plain"],
  ["020 7946 0958", "phone", "plain"],
  ["07700 900123", "phone", "plain"],
  ["07700900123", "phone", "plain"],
  ["030/1234567", "phone", "plain"],
  ["06 12 34 56 78", "phone", "plain"],
  ["0151 12345678", "phone", "plain"],
  ["call me on +44 7700 900123 after six", "phone", "plain"],
  [encodeURIComponent("+44 20 7946 0958"), "phone", "url-encoded"],
  [base64("+44 20 7946 0958"), "phone", "base64"],
  ["192.168.1.23", "ip-address", "plain"],
  ["203.0.113.7", "ip-address", "plain"],
  ["2001:db8::8a2e:370:7334", "ip-address", "plain"],
  ["fe80::1ff:fe23:4567:890a", "ip-address", "plain"],
  ["4111 1111 1111 1111", "card-number", "plain"],
  ["4111111111111111", "card-number", "plain"],
  ["5500-0000-0000-0004", "card-number", "plain"],
  ["378282246310005", "card-number", "plain"],
  ["6011111111111117", "card-number", "plain"],
  ["DE89 3704 0044 0532 0130 00", "bank-account", "plain"],
  ["GB82WEST12345698765432", "bank-account", "plain"],
];

/** Values that are not personal data, though some look a little like it. */
const NEGATIVE: string[] = [
  "pro",
  "enterprise",
  "free",
  "starter",
  "business",
  "personal",
  "team",
  "monthly",
  "annual",
  "true",
  "u_3f9a2c",
  "u_3f9a2c1b4d5e",
  "123e4567-e89b-12d3-a456-426614174000",
  "2024-03-15",
  "2024-03-15T10:20:30Z",
  "2024-03-15T10:20:30+01:00",
  "15.03.2024",
  "10:30:00",
  "19.99",
  "€49",
  "$1,299.00",
  "ORD-2024-000123",
  "INV/2024/00017",
  "SKU-48213-XL",
  "12345",
  "42",
  "0012345678",
  "1700000000000",
  "9780306406157",
  "4111 1111 1111 1112",
  "1234567812345678",
  "1.2.3",
  "v2.10.4",
  "::1",
  "00:1a:2b:3c:4d:5e",
  "#ff8800",
  "de-DE",
  "cta_variant_b",
  "https://shop.example.test/pricing?plan=pro&cycle=annual",
  base64("plan=pro&cycle=annual"),
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
  "example.org",
  "@jane",
];

test.describe("the value detector", () => {
  test("the table is big enough", () => {
    expect(POSITIVE.length).toBeGreaterThanOrEqual(30);
    expect(NEGATIVE.length).toBeGreaterThanOrEqual(30);
  });

  for (const [value, kind, encoding] of POSITIVE) {
    test(`finds ${kind} in ${JSON.stringify(value)}`, () => {
      expect(detectPersonalValue(value)).toMatchObject({ kind, encoding });
    });
  }

  for (const value of NEGATIVE) {
    test(`finds nothing in ${JSON.stringify(value)}`, () => {
      expect(detectPersonalValue(value)).toBeNull();
    });
  }

  test("never returns the raw value, only a masked one", () => {
    for (const [value] of POSITIVE) {
      const match = detectPersonalValue(value)!;
      expect(match.masked).toContain("*");
      expect(value).not.toContain(match.masked);
    }
  });
});

test.describe("the key-name detector", () => {
  const cases: [string, PersonalDataKind | null][] = [
    ["email", "email"],
    ["e-mail", "email"],
    ["userEmail", "email"],
    ["email_address", "email"],
    ["phone", "phone"],
    ["mobile", "phone"],
    ["tel", "phone"],
    ["phoneNumber", "phone"],
    ["first_name", "name"],
    ["lastName", "name"],
    ["full_name", "name"],
    ["name", "name"],
    ["surname", "name"],
    ["address", "address"],
    ["street", "address"],
    ["billing_address", "address"],
    ["postcode", "postcode"],
    ["postal_code", "postcode"],
    ["zip", "postcode"],
    ["zipCode", "postcode"],
    ["birth_date", "birth-date"],
    ["dob", "birth-date"],
    ["dateOfBirth", "birth-date"],
    ["ssn", "national-id"],
    ["national_id", "national-id"],
    ["passport_number", "national-id"],
    ["ip", "ip-address"],
    ["ip_address", "ip-address"],
    ["clientIp", "ip-address"],
    ["card_number", "card-number"],
    ["ccNumber", "card-number"],
    ["iban", "bank-account"],
    ["plan", null],
    ["account_type", null],
    ["plan_name", null],
    ["company_name", null],
    ["city", null],
    ["country", null],
    ["shipping", null],
    ["zipped", null],
    ["tier", null],
    ["signup_date", null],
  ];
  for (const [key, kind] of cases) {
    test(`${key} → ${kind ?? "nothing"}`, () => {
      expect(personalDataKindOfKey(key)).toBe(kind);
    });
  }
});

test.describe("findPersonalData", () => {
  test("finds by value and by key name, and walks into objects and JSON strings", () => {
    const hits = findPersonalData({
      plan: "pro",
      account_type: "business",
      contact: "jane.doe@example.org",
      first_name: "Jane",
      zip: "10115",
      profile: { phone: "+44 20 7946 0958" },
      meta: '{"ip":"203.0.113.7"}',
    });
    expect(hits).toEqual([
      { key: "contact", kind: "email", by: "value", encoding: "plain", masked: "j***@e***.org" },
      { key: "first_name", kind: "name", by: "key", encoding: "plain", masked: "J***" },
      { key: "zip", kind: "postcode", by: "key", encoding: "plain", masked: "1***" },
      { key: "profile.phone", kind: "phone", by: "value", encoding: "plain", masked: "+** ** **** **58" },
      { key: "meta.ip", kind: "ip-address", by: "value", encoding: "plain", masked: "203.***.***.***" },
    ]);
  });

  test("a telling key name with a value that cannot be personal is left alone", () => {
    expect(
      findPersonalData({
        email_verified: true,
        email_count: 3,
        email_opt_in: "yes",
        mobile: "ios",
        is_mobile: true,
        phone: "",
      }),
    ).toEqual([]);
  });

  test("a telling key name over a non-empty object is reported once, masked", () => {
    expect(findPersonalData({ address: { street: "Main Street 1", city: "Berlin" } })).toEqual([
      { key: "address", kind: "address", by: "key", encoding: "plain", masked: "{…}" },
    ]);
  });

  test("keys listed as allowed are exempt from both detectors, with what is inside them", () => {
    const attributes = { email: "jane@example.org", contact: "jane@example.org", profile: { name: "Jane" } };
    expect(findPersonalData(attributes, ["email", "profile"]).map((hit) => hit.key)).toEqual(["contact"]);
    expect(findPersonalData(attributes, ["profile.name"]).map((hit) => hit.key)).toEqual(["email", "contact"]);
  });

  test("finds card numbers sent as numbers, and reports a bare string as the attributes", () => {
    expect(findPersonalData({ payment: 4111111111111111 })).toEqual([
      { key: "payment", kind: "card-number", by: "value", encoding: "plain", masked: "************1111" },
    ]);
    expect(findPersonalData("jane@example.org")[0]).toMatchObject({ key: "(attributes)", kind: "email" });
  });

  test("plain segment attributes carry nothing", () => {
    expect(
      findPersonalData({
        plan: "enterprise",
        account_type: "business",
        seats: 12,
        trial: false,
        signup_date: "2024-03-15",
        order: "ORD-2024-000123",
      }),
    ).toEqual([]);
  });
});

test.describe("redactPersonalData", () => {
  test("copies the attributes with every personal value masked, JSON strings and allowed keys included", () => {
    const attributes = {
      plan: "pro",
      seats: 12,
      contact: "jane@example.org",
      profile: { phone: "+44 20 7946 0958", tags: ["a", "jane@example.org"] },
      meta: '{"ip":"203.0.113.7","source":"ad"}',
      work_email: "jane@work.example",
      deep: { a: { b: { c: { d: "jane@example.org" } } } },
    };
    expect(redactPersonalData(attributes, ["work_email"])).toEqual({
      plan: "pro",
      seats: 12,
      contact: "j***@e***.org",
      profile: { phone: "+** ** **** **58", tags: ["a", "j***@e***.org"] },
      meta: '{"ip":"203.***.***.***","source":"ad"}',
      work_email: "jane@work.example",
      deep: { a: { b: { c: "…" } } },
    });
    expect(attributes.contact).toBe("jane@example.org");
  });
});

test.describe("maskValue", () => {
  test("masks each kind, keeping only a hint", () => {
    expect(maskValue("jane@example.org", "email")).toBe("j***@e***.org");
    expect(maskValue("Jane.Doe@mail.example.co.uk", "email")).toBe("J***@m***.uk");
    expect(maskValue("+44 20 7946 0958", "phone")).toBe("+** ** **** **58");
    expect(maskValue("4111 1111 1111 1111", "card-number")).toBe("**** **** **** 1111");
    expect(maskValue("192.168.1.23", "ip-address")).toBe("192.***.***.***");
    expect(maskValue("2001:db8::1", "ip-address")).toBe("2001:***");
    expect(maskValue("DE89 3704 0044 0532 0130 00", "bank-account")).toBe("DE***00");
    expect(maskValue("Jane Doe", "name")).toBe("J***");
    expect(maskValue("AB", "postcode")).toBe("***");
  });
});

test("passesLuhn", () => {
  expect(passesLuhn("4111111111111111")).toBe(true);
  expect(passesLuhn("4111111111111112")).toBe(false);
  expect(passesLuhn("79927398713")).toBe(true);
});
