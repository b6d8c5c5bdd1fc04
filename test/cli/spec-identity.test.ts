import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { specIdentity } from "../../src/cli/spec-identity.js";
import { scratchDir } from "../support/scratch.js";

test("a spec is its path from the repository's root, however it was typed and from whichever folder", () => {
  const repository = scratchDir("repository");
  mkdirSync(join(repository, ".git"));
  mkdirSync(join(repository, "audits", "nested"), { recursive: true });
  const fromRoot = specIdentity(repository);
  const fromAudits = specIdentity(join(repository, "audits"));
  const fromNested = specIdentity(join(repository, "audits", "nested"));
  for (const identity of [
    fromRoot("audits/x.yaml"),
    fromRoot("./audits/x.yaml"),
    fromRoot(join(repository, "audits", "x.yaml")),
    fromAudits("x.yaml"),
    fromAudits("./x.yaml"),
    fromNested("../x.yaml"),
  ])
    expect(identity).toBe("audits/x.yaml");
});

test("a worktree's or submodule's .git file marks its root as git's top level does", () => {
  const repository = scratchDir("worktree");
  writeFileSync(join(repository, ".git"), "gitdir: /elsewhere/.git/worktrees/x\n");
  mkdirSync(join(repository, "audits"));
  expect(specIdentity(join(repository, "audits"))("x.yaml")).toBe("audits/x.yaml");
});

test("outside git, a spec is its path from the working folder", () => {
  const outside = mkdtempSync(join(tmpdir(), "setup-audit-no-git-"));
  try {
    expect(specIdentity(outside)("./audits/x.yaml")).toBe("audits/x.yaml");
    expect(specIdentity(outside)(join(outside, "audits", "x.yaml"))).toBe("audits/x.yaml");
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});
