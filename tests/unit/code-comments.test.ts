/**
 * Comments and test titles speak of the code: none cites a tracker issue ("issue 26", "GitHub
 * issues #5 and #16") or a numbered section of the specification ("spec section 9", "§4"). A
 * number like that means nothing to a reader of the code and goes stale the day the issue
 * closes; the comment says what the code does and why instead. Scanned: every code file of
 * the site, its runtime, scripts, benches and tests, and the root configs; not test fixtures.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SCANNED = ["src", "netlify", "runtime", "scripts", "bench", "tests"];
const CODE = /\.(?:[cm]?[jt]sx?|d\.mts|astro|css)$/;
/** Test data, which may quote anything. */
const FIXTURES = "tests/fixtures/";
/** This file, whose examples below are the very citations it looks for. */
const SELF = "tests/unit/code-comments.test.ts";

/**
 * Files other branches are rewriting while this check lands; a later pass rewrites their
 * comments. This list must be emptied: once those branches are merged, delete every entry
 * (and fix what the check then finds) so the whole repository is held to the rule.
 * An entry ending in "/" is a folder; "*" stands for any characters but "/".
 */
const PENDING_FILES: readonly string[] = [
  "README.md",
  "content/blog/expand-tree-service-new-services-locations.mdx",
  "content/blog/hiring-retaining-tree-crews.mdx",
  "content/blog/tree-service-insurance-licensing-guide.mdx",
  "content/growth/consumer/red-flags.yaml",
  "content/growth/phases/phase-1.yaml",
  "content/growth/phases/phase-5.yaml",
  "content/legal/terms.yaml",
  "docs/chat.md",
  "docs/dialogs.md",
  "docs/operations.md",
  "docs/owners.md",
  "netlify/functions/owner-add.mts",
  "netlify/functions/owner-claim.mts",
  "netlify/functions/owner-code.mts",
  "netlify/functions/owner-credentials.mts",
  "netlify/functions/owner-photos.mts",
  "netlify/functions/owner-profile.mts",
  "netlify/functions/owner-reviews.mts",
  "netlify/functions/owner-sign-in.mts",
  "netlify/functions/owner-sign-out.mts",
  "netlify/functions/owner.mts",
  "netlify/lib/admin/credentials.ts",
  "netlify/lib/owners/credentials.ts",
  "netlify/lib/owners/forms.ts",
  "netlify/lib/owners/overview.ts",
  "netlify/lib/owners/page.ts",
  "netlify/lib/owners/photos.ts",
  "netlify/lib/owners/profile.ts",
  "netlify/lib/owners/reviews.ts",
  "netlify/lib/owners/sign-in.ts",
  "netlify/lib/page-data/owner-sign-in.ts",
  "netlify/lib/page-data/owner.ts",
  "src/components/owner/AddBusinessForm.astro",
  "src/components/owner/Choice.astro",
  "src/components/owner/ClaimForm.astro",
  "src/components/owner/CredentialStatus.astro",
  "src/components/owner/CredentialsForm.astro",
  "src/components/owner/Field.astro",
  "src/components/owner/FieldError.astro",
  "src/components/owner/Fieldset.astro",
  "src/components/owner/FindYourBusiness.astro",
  "src/components/owner/FinishListing.astro",
  "src/components/owner/LeadsTable.astro",
  "src/components/owner/MessageBox.astro",
  "src/components/owner/NoteField.astro",
  "src/components/owner/Notices.astro",
  "src/components/owner/OptionGroups.astro",
  "src/components/owner/OwnerFrame.astro",
  "src/components/owner/OwnerNav.astro",
  "src/components/owner/OwnerPage.astro",
  "src/components/owner/Pager.astro",
  "src/components/owner/PhotoManager.astro",
  "src/components/owner/ProfileForm.astro",
  "src/components/owner/Refused.astro",
  "src/components/owner/ReviewItem.astro",
  "src/components/owner/SelectField.astro",
  "src/components/owner/SignedOut.astro",
  "src/islands/admin/CredentialsPanel.tsx",
  "src/lib/admin-changes.ts",
  "src/lib/credentials.ts",
  "src/lib/owner-links.ts",
  "src/lib/owner-views.ts",
  "src/pages/find-a-tree-service.astro",
  "src/pages/owner/add.astro",
  "src/pages/owner/claim/[slug].astro",
  "src/pages/owner/code/[id].astro",
  "src/pages/owner/credentials.astro",
  "src/pages/owner/index.astro",
  "src/pages/owner/photos.astro",
  "src/pages/owner/profile.astro",
  "src/pages/owner/reviews.astro",
  "src/pages/owner/sign-in/[token].astro",
  "src/pages/owner/sign-in/index.astro",
  "src/pages/owner/sign-out.astro",
  "tests/e2e/chat.spec.ts",
  "tests/e2e/owner-claims.spec.ts",
  "tests/helpers/dist.ts",
  "tests/integration/functions/owner-claims.test.ts",
  "tests/integration/functions/owner-credentials.test.ts",
  "tests/integration/functions/owner-pages.test.ts",
  "tests/integration/functions/owner-reviews.test.ts",
  "tests/integration/fuzz/endpoints.test.ts",
  "tests/unit/built-dialogs.test.ts",
  "tests/unit/built-navigation.test.ts",
  "tests/unit/credentials.test.ts",
  "tests/unit/islands/admin-changes.test.tsx",
  "tests/unit/islands/admin-credentials.test.tsx",
  "tests/unit/islands/directory-detail.test.tsx",
  "tests/unit/jsonld.test.ts",
  "tests/unit/page-boundary.test.ts",
  "netlify/lib/admin/",
  "netlify/lib/directory*.ts",
  "src/lib/credentials*",
  "src/lib/owners*",
  "src/lib/owner-profile*",
  "src/lib/schemas/business.ts",
  "netlify/lib/store/repos/leads.ts",
  "netlify/lib/store/repos/lead-facets.ts",
  "netlify/lib/store/repos/businesses.ts",
  "tests/integration/store/",
];

/** "issue 26", "Issue #9", "issues #4 and #13", "issue-17"; a spec's numbered section or "§". */
const CITATION = /\bissues?(?:\s*#?|-)\d|\bspec(?:ification)?(?:'s)?\s+sections?\s*\d|\bsections?\s+\d+\b|§/i;

/** A pending entry as a test on a repository path. */
function matcher(entry: string): (path: string) => boolean {
  if (entry.endsWith("/")) return (path) => path.startsWith(entry);
  const pattern = new RegExp(`^${entry.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
  return (path) => pattern.test(path);
}
const PENDING = PENDING_FILES.map(matcher);

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (CODE.test(name)) yield path;
  }
}

/** Every scanned code file, as a repository path with "/" separators. */
function codeFiles(): string[] {
  const roots = readdirSync(ROOT).filter((name) => CODE.test(name) && statSync(join(ROOT, name)).isFile());
  const nested = SCANNED.flatMap((top) => [...files(join(ROOT, top))].map((path) => relative(ROOT, path)));
  return [...roots, ...nested].map((path) => path.split(sep).join("/")).sort();
}

/** "file:line: text" for each line that cites an issue or a spec section. */
function citations(): string[] {
  const found: string[] = [];
  for (const path of codeFiles()) {
    if (path === SELF || path.startsWith(FIXTURES) || PENDING.some((pending) => pending(path))) continue;
    readFileSync(join(ROOT, path), "utf8")
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

  it("read a pending entry as a file, a folder or a pattern", () => {
    expect(matcher("src/lib/facts.ts")("src/lib/facts.ts")).toBe(true);
    expect(matcher("src/lib/facts.ts")("src/lib/facts.test.ts")).toBe(false);
    expect(matcher("netlify/lib/admin/")("netlify/lib/admin/claims/x.ts")).toBe(true);
    expect(matcher("netlify/lib/directory*.ts")("netlify/lib/directory-page.ts")).toBe(true);
    expect(matcher("netlify/lib/directory*.ts")("netlify/lib/directory/page.ts")).toBe(false);
  });
});
