import { gzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { decodeCollectBody } from "../../src/gather/payload.js";

const url = "https://collect.example.test/v1/collect";
const batch = {
  key: "prj_1",
  events: [
    { kind: "track", name: "signup_success" },
    { kind: "identify", userId: "u_1" },
  ],
};

test("reads a JSON batch inside an envelope", () => {
  const { events, error } = decodeCollectBody(Buffer.from(JSON.stringify(batch)), url, undefined);
  expect(error).toBeNull();
  expect(events.map((event) => event.strings)).toEqual([
    ["track", "signup_success"],
    ["identify", "u_1"],
  ]);
});

test("keeps the payload as decoded, its envelope included", () => {
  const pixel = `${url}?d=${encodeURIComponent(JSON.stringify({ token: "t_1" }))}`;
  expect(decodeCollectBody(Buffer.from(JSON.stringify(batch)), pixel, undefined).payloads).toEqual([
    batch,
    { token: "t_1" },
  ]);
});

test("reads a bare array and a single event", () => {
  expect(decodeCollectBody(Buffer.from(JSON.stringify(batch.events)), url, undefined).events).toHaveLength(2);
  expect(
    decodeCollectBody(Buffer.from(JSON.stringify({ event: "x", props: { a: "b" } })), url, undefined).events[0]
      ?.strings,
  ).toEqual(["x", "b"]);
});

test("reads gzip, with or without a content-encoding header", () => {
  const body = gzipSync(JSON.stringify(batch));
  expect(decodeCollectBody(body, url, "gzip").events).toHaveLength(2);
  expect(decodeCollectBody(body, url, undefined).events).toHaveLength(2);
});

test("reads form-encoded plain and base64 JSON", () => {
  const plain = `data=${encodeURIComponent(JSON.stringify(batch))}`;
  const base64 = `data=${encodeURIComponent(Buffer.from(JSON.stringify(batch)).toString("base64"))}`;
  expect(decodeCollectBody(Buffer.from(plain), url, "").events).toHaveLength(2);
  expect(decodeCollectBody(Buffer.from(base64), url, "").events).toHaveLength(2);
});

test("reads a payload in the query string of a pixel request", () => {
  const pixel = `${url}?data=${Buffer.from(JSON.stringify(batch)).toString("base64")}`;
  expect(decodeCollectBody(null, pixel, undefined).events).toHaveLength(2);
});

test("says why a body could not be read", () => {
  const { events, error } = decodeCollectBody(Buffer.from("%%% not a payload"), url, undefined);
  expect(events).toEqual([]);
  expect(error).toContain("could not be decoded");
});
