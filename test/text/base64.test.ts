import { expect, test } from "@playwright/test";
import { base64Forms, decodeBase64Text } from "../../src/text/base64.js";

const json = '{"event":"signup_success","name":"Zoë 👨‍👩‍👧"}';

test("decodes text in either alphabet, padded or not, around white space", () => {
  const standard = Buffer.from(json).toString("base64");
  expect(decodeBase64Text(standard)).toBe(json);
  expect(decodeBase64Text(` ${standard.replace(/=+$/, "")}\n`)).toBe(json);
  expect(decodeBase64Text(Buffer.from(json).toString("base64url"))).toBe(json);
});

test("words in base64's alphabet, short strings and binary data are not base64 text", () => {
  for (const word of ["signup_success", "abcdefghi", "e30=", "cta_variant_b"])
    expect(decodeBase64Text(word), word).toBeNull();
  expect(
    decodeBase64Text(Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x10, 0x80, 0x81, 0x82, 0x83]).toString("base64")),
  ).toBeNull();
});

test("a value's encoded forms, in both alphabets, are found inside its padded encoding", () => {
  const value = "jane>>?@example.test";
  const [standard, urlSafe] = base64Forms(value);
  expect(standard).toBe("amFuZT4+P0BleGFtcGxlLnRlc3Q");
  expect(urlSafe).toBe("amFuZT4-P0BleGFtcGxlLnRlc3Q");
  expect(Buffer.from(value).toString("base64")).toContain(standard);
});
