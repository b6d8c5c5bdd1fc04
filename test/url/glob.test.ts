import { expect, test } from "@playwright/test";
import { PRESETS } from "../../src/vendors/presets.js";
import { storageNameMatcher } from "../../src/audit-spec/storage-names.js";
import { globBraceProblem, urlMatcher } from "../../src/url/glob.js";

test("** crosses folders, * does not, {a,b} picks one", () => {
  expect(urlMatcher("**/sdk/v1/sdk.js")("https://cdn.example.test/sdk/v1/sdk.js")).toBe(true);
  expect(urlMatcher("**/sdk/v1/sdk.js")("https://cdn.example.test/sdk/v1/sdk.json")).toBe(false);
  expect(urlMatcher("https://*.example.test/collect")("https://eu.example.test/collect")).toBe(true);
  expect(urlMatcher("https://*/collect")("https://a.test/b/collect")).toBe(false);
  expect(urlMatcher("**/v1/{collect,batch}")("https://x.test/v1/batch")).toBe(true);
});

test("a query string or hash does not stop a match", () => {
  expect(urlMatcher("**/sdk/v1/sdk.js")("https://cdn.test/sdk/v1/sdk.js?key=prj_1")).toBe(true);
  expect(urlMatcher("**/v1/collect")("https://x.test/v1/collect#x")).toBe(true);
});

test("in a name glob, * crosses everything and {a,b} picks one, the name matched whole", () => {
  const matches = storageNameMatcher(["ph_*_posthog", "rudder.*", "mp_{session,id}"]);
  for (const name of ["ph_phc_a/b_posthog", "rudder.user", "mp_id"]) expect(matches(name), name).toBe(true);
  for (const name of ["xph_phc_posthog", "mp_idx", "rudder_user"]) expect(matches(name), name).toBe(false);
  expect(storageNameMatcher([])("anything")).toBe(false);
});

test("braces that do not balance are named with their place in the glob, and never compiled", () => {
  expect(globBraceProblem("**/v1/{collect,batch}")).toBeUndefined();
  expect(globBraceProblem("**/v1/{collect,batch")).toBe(
    '"{" at character 7 is never closed: close the group with "}" ({a,b} matches a or b), or remove it',
  );
  expect(globBraceProblem("**/v1/collect}")).toBe(
    '"}" at character 14 closes no group: remove it, or open the group with "{" ({a,b} matches a or b)',
  );
  expect(globBraceProblem("{a,{b}}")).toContain("groups do not nest");
  expect(() => urlMatcher("**/v1/{collect")).toThrow(
    'invalid glob "**/v1/{collect": "{" at character 7 is never closed',
  );
  expect(() => storageNameMatcher(["ph_{a"])).toThrow("never closed");
});

test("every preset's globs balance", () => {
  for (const [name, preset] of Object.entries(PRESETS)) {
    for (const glob of [preset.script, preset.collect, ...preset.storage])
      expect(globBraceProblem(glob), `${name}: ${glob}`).toBeUndefined();
  }
});
