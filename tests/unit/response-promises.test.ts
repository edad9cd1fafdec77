/**
 * Every response time the site promises ("within 24 hours", "a 30-minute dispatch") is written
 * once, as RESPONSE_TIMES (src/lib/lead-urgency.ts, re-exported by src/lib/facts.ts, and the YAML
 * tokens filled from it). This reads the code and content a visitor's words come from (src/,
 * content/, netlify/) without their comments and fails on a promise typed anywhere, so a changed
 * promise cannot leave an old one behind on a page, a form, a message or a legal text.
 */
import { readFileSync, readdirSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { FACT_TOKENS, RESPONSE_TIMES } from "../../src/lib/facts.ts";

const ROOT = new URL("../../", import.meta.url);
const SCANNED = ["src", "content", "netlify"];
const SOURCE = /\.(?:[cm]?[jt]sx?|astro|ya?ml|mdx?|json)$/;

const NUMBER = String.raw`(?:\d+(?:\s*[-–]\s*\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty)`;
const UNIT = String.raw`(?:(?:working|business)\s+)?(?:hours?|hrs?|minutes?|mins?|days?|weeks?)`;
/** The ways a response time is promised: "within 2 hours", "24-hour reply", "dispatched in 30 minutes". */
const PROMISES = [
  String.raw`\bwithin\s+${NUMBER}\s*${UNIT}\b`,
  String.raw`\b\d+[-\s](?:hour|hr|minute|min|day)s?[-\s](?:response|reply|turnaround|call-?back|contact|promise|guarantee|dispatch)\b`,
  String.raw`\b\d+-(?:hour|hr)\b`,
  String.raw`\b(?:respond|responds|reply|replies|answer|answers|contact|dispatch|dispatched|confirm|arrive|on site)\b[^.\n]{0,30}?\b(?:in|under)\s+${NUMBER}\s*${UNIT}\b`,
].map((source) => new RegExp(source, "gi"));

/**
 * Literals that are not a promise of ours, each with why: a file (relative to the repository)
 * and the exact words. Keep it short: a new entry needs the same kind of reason.
 */
const NOT_PROMISES: readonly { file: string; text: string; why: string }[] = [
  { file: "src/lib/options.ts", text: "Within 1 week", why: "the visitor's timeline, a form choice" },
  { file: "content/legal/terms.yaml", text: "24-hour", why: "the notice a customer gives to cancel" },
  { file: "content/legal/terms.yaml", text: "within 30 days", why: "the customer's refund window" },
  { file: "content/growth/phases/phase-1.yaml", text: "within 30 days", why: "the customer's refund window" },
  { file: "content/growth/phases/phase-2.yaml", text: "within 2 hours", why: "advice to owners on their reviews" },
  { file: "content/directory/businesses.json", text: "24-hour", why: "a listed business's own description" },
  {
    file: "content/directory/businesses.json",
    text: "within two days",
    why: "a sample review's words about its (sample) business",
  },
  {
    file: "content/blog/pricing-strategies-profitable-tree-service.mdx",
    text: "within 5 days",
    why: "a sample price tier",
  },
  {
    file: "content/blog/scale-tree-service-beyond-owner-operator.mdx",
    text: "within 5 minutes",
    why: "advice to owners",
  },
  {
    file: "content/blog/tree-service-marketing-lead-generation.mdx",
    text: "within five minutes",
    why: "advice to owners",
  },
];

/** Comments removed (each character replaced by a space, so line numbers hold). */
function blank(text: string, start: number, end: number): string {
  return text.slice(0, start) + text.slice(start, end).replace(/[^\n]/g, " ") + text.slice(end);
}

/** TypeScript or JavaScript without its comments, found by the compiler's own parser. */
function stripScriptComments(text: string, fileName: string): string {
  const kind = /x$/.test(fileName) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const ranges: ts.CommentRange[] = [];
  const visit = (node: ts.Node) => {
    ranges.push(...(ts.getLeadingCommentRanges(text, node.pos) ?? []));
    ranges.push(...(ts.getTrailingCommentRanges(text, node.end) ?? []));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return ranges.reduce((out, r) => blank(out, r.pos, r.end), text);
}

/** An Astro file without comments: its frontmatter's, its scripts' and its template's. */
function stripAstroComments(text: string): string {
  let out = text.replace(/<!--[\s\S]*?-->|\{\s*\/\*[\s\S]*?\*\/\s*\}/g, (m) => m.replace(/[^\n]/g, " "));
  const parts = [/^---\n([\s\S]*?)\n---/.exec(out), ...out.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)];
  for (const part of parts) {
    if (!part?.[1]) continue;
    const at = part.index + part[0].indexOf(part[1]);
    out = out.slice(0, at) + stripScriptComments(part[1], "frontmatter.ts") + out.slice(at + part[1].length);
  }
  return out;
}

/** What a reader of the built site (or a message) can see of a file: its text without comments. */
function withoutComments(file: string, text: string): string {
  if (/\.[cm]?[jt]sx?$/.test(file)) return stripScriptComments(text, file);
  if (file.endsWith(".astro")) return stripAstroComments(text);
  if (/\.ya?ml$/.test(file)) return text.replace(/^\s*#.*$/gm, (m) => m.replace(/./g, " "));
  if (file.endsWith(".mdx"))
    return text.replace(/<!--[\s\S]*?-->|\{\s*\/\*[\s\S]*?\*\/\s*\}/g, (m) => m.replace(/[^\n]/g, " "));
  return text;
}

/** Each literal promise in a text: its line and words. */
function promisesIn(file: string, text: string): { line: number; text: string }[] {
  if (!PROMISES.some((re) => new RegExp(re).test(text))) return [];
  const bare = withoutComments(file, text);
  const found = PROMISES.flatMap((re) => [...bare.matchAll(re)]).map((m) => ({
    line: bare.slice(0, m.index).split("\n").length,
    text: m[0].replace(/\s+/g, " "),
  }));
  return found.filter((f) => !NOT_PROMISES.some((n) => n.file === file && n.text === f.text));
}

const files = SCANNED.flatMap((dir) =>
  readdirSync(new URL(`${dir}/`, ROOT), { recursive: true, encoding: "utf8" })
    .map((f) => `${dir}/${f}`)
    .filter((f) => SOURCE.test(f)),
);

describe("response-time promises come from src/lib/facts.ts", () => {
  it("finds the promises it is meant to find, and none in comments", () => {
    expect(promisesIn("a.ts", 'const a = "We reply within 24 hours.";').map((p) => p.text)).toEqual([
      "within 24 hours",
    ]);
    expect(promisesIn("a.astro", "<p>within\n  2 hours</p>").map((p) => p.text)).toEqual(["within 2 hours"]);
    expect(promisesIn("a.yaml", "time: Within two working days").map((p) => p.text)).toEqual([
      "Within two working days",
    ]);
    expect(promisesIn("a.ts", 'x = "our 24-hour reply"; y = "crews dispatched in 30 minutes";').length).toBeGreaterThan(
      1,
    );
    expect(promisesIn("a.ts", '// within 24 hours\n/** within 2 hours */\nconst a = "fine";')).toEqual([]);
    expect(promisesIn("a.yaml", "# within 24 hours\ntime: Within {contactHours}")).toEqual([]);
    expect(promisesIn("a.astro", "---\n// within 24 hours\n---\n<!-- within 2 hours -->{/* within 3 days */}")).toEqual(
      [],
    );
  });

  it("scans the source tree", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain("src/lib/forms/copy.ts");
    expect(files).toContain("content/marketing/emergency.yaml");
  });

  it.each(files)("%s types no response time", (file) => {
    const text = readFileSync(new URL(file, ROOT), "utf8");
    expect(promisesIn(file, text)).toEqual([]);
  });

  it("every allowed literal is still there (a stale entry is removed)", () => {
    for (const { file, text } of NOT_PROMISES) expect(readFileSync(new URL(file, ROOT), "utf8")).toContain(text);
  });

  it("the YAML tokens are the facts' own words", () => {
    expect(FACT_TOKENS.contactHours).toBe(RESPONSE_TIMES.contact);
    expect(FACT_TOKENS.dispatchMinutes).toBe(RESPONSE_TIMES.dispatch);
    expect(FACT_TOKENS.onSiteHours).toBe(RESPONSE_TIMES.onSite);
    expect(FACT_TOKENS.privacyRequestDays).toBe(RESPONSE_TIMES.privacyRequest);
  });
});
