import { expect, test } from "@playwright/test";
import { makeOffline, REPORT_CSP } from "../../src/report/offline-html.js";

/** The shape of Allure 3.18's "awesome" index.html, analytics included. */
const ALLURE_PAGE = `<!DOCTYPE html>
<html dir="ltr" lang="en">
<head>
    <meta charset="utf-8">
    <title> Setup audit </title>
    <link rel="icon" href="data:image/svg+xml,%3Csvg%3E%3C/svg%3E">
    <link rel="stylesheet" type="text/css" href="data:text/css;base64,Ym9keXt9">
    <script>
      window.allureReportOptions = {"reportName":"Setup audit"}
    </script>
</head>
<body>
    <div id="app"></div>
    <script src="data:text/javascript;base64,Y29uc29sZS5sb2coMSk="></script>
    <script async src="https://www.googletagmanager.com/gtag/js?id=G-LNDJ3J7WT0"></script>
    <script>
        window.dataLayer = window.dataLayer || [];
        function gtag(){dataLayer.push(arguments);}
        gtag('js', new Date());
        gtag('config', 'G-LNDJ3J7WT0', { "report": "awesome" });
    </script>
    <script async>
      window.allureReportData = window.allureReportData || {};
    </script>
</body>
</html>
`;

test("the analytics tag and its loader are cut out; the report's own scripts stay", () => {
  const offline = makeOffline(ALLURE_PAGE);
  expect(offline).not.toMatch(/googletagmanager|gtag|dataLayer/);
  expect(offline).toContain('<script src="data:text/javascript;base64,Y29uc29sZS5sb2coMSk="></script>');
  expect(offline).toContain("window.allureReportOptions");
  expect(offline).toContain("window.allureReportData");
  expect(offline.match(/<script\b/g)).toHaveLength(3);
});

test("a Content-Security-Policy right after <head> forbids loading from any other host", () => {
  const offline = makeOffline(ALLURE_PAGE);
  expect(offline).toContain(
    `<head>\n    <meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">\n    <meta charset="utf-8">`,
  );
  expect(REPORT_CSP).toMatch(/^default-src 'none'; /);
  expect(REPORT_CSP).not.toMatch(/https?:|\*/);
});

test("any script from another host is removed, whatever it is", () => {
  const page = ALLURE_PAGE.replace(
    "</body>",
    "<script src=\"//cdn.example.com/x.js\"></script><script defer src='http://cdn.example.com/y.js'></script></body>",
  );
  expect(makeOffline(page)).not.toContain("cdn.example.com");
});

test("a remote stylesheet, font or image that survives makes the build fail instead of shipping", () => {
  const withFont = ALLURE_PAGE.replace(
    "</head>",
    '<link rel="preload" href="https://fonts.example.com/a.woff" as="font"></head>',
  );
  expect(() => makeOffline(withFont)).toThrow(
    /still loads from another host \(<link rel="preload" href="https:\/\/fonts\.example\.com/,
  );
  expect(() => makeOffline("<html><body></body></html>")).toThrow(/has no <head>/);
});
