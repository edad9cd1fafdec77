/**
 * Comments and test titles speak of the code: none cites a tracker issue ("issue 26", "GitHub
 * issues #5 and #16") or a numbered section of the specification ("spec section 9", "§4"). A
 * number like that means nothing to a reader of the code and goes stale the day the issue
 * closes; the comment says what the code does and why instead. Scanned: every code file of
 * the site, its runtime, scripts, benches and tests, and the root configs; not test fixtures.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, repoFiles } from "../helpers/repo-files.ts";

const SCANNED = ["src", "netlify", "runtime", "scripts", "bench", "tests"];
const CODE = /\.(?:[cm]?[jt]sx?|d\.mts|astro|css)$/;
/** Test data, which may quote anything. */
const FIXTURES = "tests/fixtures/";
/** This file, whose examples below are the very citations it looks for. */
const SELF = "tests/unit/code-comments.test.ts";

/** "issue 26", "Issue #9", "issues #4 and #13", "issue-17"; a spec's numbered section or "§". */
const CITATION = /\bissues?(?:\s*#?|-)\d|\bspec(?:ification)?(?:'s)?\s+sections?\s*\d|\bsections?\s+\d+\b|§/i;

/** Every scanned code file, as a repository path with "/" separators. */
function codeFiles(): string[] {
  const roots = readdirSync(REPO_ROOT).filter((name) => CODE.test(name) && statSync(join(REPO_ROOT, name)).isFile());
  return [...roots, ...repoFiles(SCANNED, CODE)].sort();
}

/** "file:line: text" for each line that cites an issue or a spec section. */
function citations(): string[] {
  const found: string[] = [];
  for (const path of codeFiles()) {
    if (path === SELF || path.startsWith(FIXTURES)) continue;
    readFileSync(join(REPO_ROOT, path), "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (CITATION.test(line)) found.push(`${path}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe("code comments", () => {
  it("scan the code they are meant to", () => {
    const scanned = codeFiles();
    for (const path of ["astro.config.mjs", "src/lib/facts.ts", "netlify/functions/health.mts", "runtime/serve.mjs"])
      expect(scanned, path).toContain(path);
    expect(scanned.some((path) => path.startsWith("bench/"))).toBe(true);
    expect(scanned).toContain(SELF);
  });

  it("cite no issue or spec section number", () => {
    expect(citations()).toEqual([]);
  });

  it("recognize a citation however it is written", () => {
    for (const text of [
      "// Faults (issue #9): Redis going away",
      "/** Miles around the place (issue 17: 10, 25). */",
      " * Directory detail pages (GitHub issues #5 and #16)",
      "// see issue-26",
      "/** Spec section 9: the loading skeleton has 6 cards. */",
      'it("keeps the spec section 9 figures as text", () => {',
      " * Book Service (spec sections 4 and 5)",
      " * the specification's section 3 lists",
      " * the failure message (section 8)",
      "// as §4 says",
    ])
      expect(CITATION.test(text), text).toBe(true);
    for (const text of [
      "const issues = error.issues[0];",
      "ctx.addIssue({ code: 'custom' })",
      "// FAQ sections, articles, nested pages",
      "/** The spec's default is a consultation. */",
      '"Licence MD LTE #1234"',
      "// the sections exist, in order",
    ])
      expect(CITATION.test(text), text).toBe(false);
  });
});
