import { expect, test } from "@playwright/test";
import { attributesSeen, firedOnEveryViewport, trackedOnEveryViewport } from "../../src/init/fired-events.js";
import { callWith, pageWith } from "../support/artifacts.js";

/** What fired while init loaded the pages: only calls made, only what fired on every viewport. */

const track = (name: string, state: "direct" | "queued" | "lost" = "direct") =>
  callWith({ kind: "track", method: "track", name, state });
const identify = (properties: unknown) => callWith({ kind: "identify", method: "identify", name: "u_1", properties });

test("a page expects the events it tracked on every viewport, and identify when it identified on every one", () => {
  const pages = [
    pageWith({
      page: "offers",
      viewport: "desktop",
      calls: [track("hero_seen", "queued"), track("menu_viewed"), identify({ plan: "pro" })],
    }),
    pageWith({ page: "offers", viewport: "mobile", calls: [track("hero_seen"), identify({ plan: "pro" })] }),
  ];
  expect(firedOnEveryViewport(pages, "offers")).toEqual({ track: ["hero_seen"], identify: true });
});

test("a call lost before the SDK existed never fired", () => {
  const pages = [
    pageWith({ page: "early", viewport: "desktop", calls: [track("page_viewed", "lost")] }),
    pageWith({ page: "early", viewport: "mobile", calls: [track("page_viewed", "lost")] }),
  ];
  expect(firedOnEveryViewport(pages, "early")).toEqual({ track: [], identify: false });
  expect(trackedOnEveryViewport(pages)).toEqual(new Set());
});

test("a page that did not load on a viewport expects nothing", () => {
  const pages = [
    pageWith({ page: "p", viewport: "desktop", calls: [track("a")] }),
    pageWith({ page: "p", viewport: "mobile", loadError: "HTTP 500", calls: [] }),
  ];
  expect(firedOnEveryViewport(pages, "p")).toEqual({ track: [], identify: false });
});

test("a goal's event counts when some page tracked it on each viewport", () => {
  const pages = [
    pageWith({ page: "a", viewport: "desktop", calls: [track("signup_success"), track("desktop_only")] }),
    pageWith({ page: "b", viewport: "mobile", calls: [track("signup_success")] }),
  ];
  expect(trackedOnEveryViewport(pages)).toEqual(new Set(["signup_success"]));
});

test("required attributes are those every identifying page × viewport sent as simple values, personal data left out", () => {
  const pages = [
    pageWith({
      page: "a",
      viewport: "desktop",
      calls: [
        identify({ plan: "pro", account_type: "business", company: { size: 12 }, contact: "jane.doe@example.org" }),
      ],
    }),
    pageWith({
      page: "a",
      viewport: "mobile",
      calls: [identify({ plan: "pro", account_type: "business", email: "j@example.org" })],
    }),
    pageWith({
      page: "b",
      viewport: "desktop",
      calls: [identify({ plan: "free", account_type: "personal", phone: "+44 20 7946 0958", first_name: "Jane" })],
    }),
    pageWith({ page: "c", viewport: "desktop", calls: [track("x")] }),
  ];
  expect(attributesSeen(pages)).toEqual({
    required: ["plan", "account_type"],
    personal: ["contact", "email", "first_name", "phone"],
    identifyingUnits: 3,
  });
});

test("attributes split over identify and people.set count together", () => {
  const pages = [
    pageWith({
      calls: [
        identify(null),
        callWith({ kind: "identify", method: "people.set", name: null, properties: { plan: "pro" } }),
      ],
    }),
  ];
  expect(attributesSeen(pages).required).toEqual(["plan"]);
});

test("without identify calls nothing is required", () => {
  expect(attributesSeen([pageWith({ calls: [track("x")] })])).toEqual({
    required: [],
    personal: [],
    identifyingUnits: 0,
  });
});
