import { expect, test } from "@playwright/test";
import { CrawlQueue, pageIdFor } from "../../src/init/crawl.js";

/** The pages init lists: breadth first from the URL, on its origin, at most the limit. */

const start = new URL("http://shop.example.test/");

function listAll(queue: CrawlQueue, linksOf: Record<string, string[]>): string[] {
  const listed: string[] = [];
  for (let path = queue.next(); path !== undefined; path = queue.next()) {
    listed.push(path);
    queue.add(linksOf[path] ?? []);
  }
  return listed;
}

test("pages are listed breadth first, each once", () => {
  const linksOf = {
    "/": ["http://shop.example.test/pricing", "http://shop.example.test/about", "http://shop.example.test/"],
    "/pricing": ["http://shop.example.test/signup", "http://shop.example.test/about"],
    "/about": ["http://shop.example.test/team"],
  };
  expect(listAll(new CrawlQueue(start, 10), linksOf)).toEqual(["/", "/pricing", "/about", "/signup", "/team"]);
});

test("the limit counts the URL itself; 1 lists only the URL", () => {
  const linksOf = { "/": ["http://shop.example.test/a", "http://shop.example.test/b"] };
  expect(listAll(new CrawlQueue(start, 1), linksOf)).toEqual(["/"]);
  expect(listAll(new CrawlQueue(start, 2), linksOf)).toEqual(["/", "/a"]);
});

test("only pages on the URL's origin are followed; anchors are the same page; files are no pages", () => {
  const linksOf = {
    "/": [
      "http://other.example.test/x",
      "https://shop.example.test/secure",
      "http://shop.example.test:8080/port",
      "http://shop.example.test/#top",
      "http://shop.example.test/guide.pdf",
      "mailto:hello@example.test",
      "not a url",
      "http://shop.example.test/search?q=shoes#results",
    ],
  };
  expect(listAll(new CrawlQueue(start, 10), linksOf)).toEqual(["/", "/search?q=shoes"]);
});

test("a hash router's routes (#/pricing) are pages of their own; their anchors are not", () => {
  const linksOf = {
    "/": [
      "http://shop.example.test/#/pricing",
      "http://shop.example.test/#/pricing#faq",
      "http://shop.example.test/#!/about",
    ],
  };
  expect(listAll(new CrawlQueue(start, 10), linksOf)).toEqual(["/", "/#/pricing", "/#!/about"]);
});

test("page ids are made of the path's words, home for /, unique", () => {
  expect(pageIdFor("/", new Set())).toBe("home");
  expect(pageIdFor("/Pricing/Pro?plan=1", new Set())).toBe("pricing-pro-plan-1");
  expect(pageIdFor("/pricing", new Set(["pricing", "pricing-2"]))).toBe("pricing-3");
});
