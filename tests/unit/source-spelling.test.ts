/**
 * US English in the source as well as in the built pages (built-spelling.test.ts): every
 * string, JSX text, comment and content file under src/, netlify/ and content/ is read for
 * British spellings. Code names are not words a person reads, so identifiers are left out
 * (a stored field keeps its name); the few string literals that must keep a British form are
 * listed in ALLOWED with their reason.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, repoFiles } from "../helpers/repo-files.ts";

/**
 * British forms, each matched as a whole word with its usual endings (-ise verbs that have a
 * US -ize twin; "practise" is left out: as a noun's verb it cannot be told from the text).
 */
const BRITISH = new RegExp(
  String.raw`\b(` +
    [
      String.raw`programmes?`,
      String.raw`licences?`,
      String.raw`neighbour\w*`,
      String.raw`centre[sd]?`,
      String.raw`centring`,
      String.raw`colour\w*`,
      String.raw`favour\w*`,
      String.raw`behaviour\w*`,
      String.raw`honour\w*`,
      String.raw`labour\w*`,
      String.raw`organis(e|ed|es|ing|ation|ations)`,
      String.raw`(optimi|minimi|maximi|recogni|authori|finali|stabili|fertili|energi|prioriti|summari|customi|utili|apologi|speciali|reali|emphasi|categori|standardi|personali|visuali|normali)s(e|ed|es|ing|ation|ations)`,
      String.raw`cancell(ed|ing)`,
      String.raw`catalogue[sd]?`,
      String.raw`analys(e|ed|ing)`,
      String.raw`judgements?`,
      String.raw`fulfil(s|ment)?`,
      String.raw`enrol(s|ment|ments)?`,
      String.raw`travell(ed|ing|er|ers)`,
      String.raw`modell(ed|ing|er|ers)`,
      String.raw`labell(ed|ing)`,
      String.raw`(kilo)?metres?`,
      String.raw`defence`,
      String.raw`offences?`,
      String.raw`grey`,
      String.raw`tyres?`,
      String.raw`storeys`,
      String.raw`aluminium`,
      String.raw`whilst`,
      String.raw`amongst`,
    ].join("|") +
    String.raw`)\b`,
  "gi",
);

/** Text that keeps a British form, exactly as written, and why. */
const ALLOWED: readonly { text: string; why: string }[] = [
  {
    text: `"licence"`,
    why: "the credentials field's name (Business.credentials.licence, stored as is, and the admin PATCH body's key): renaming it needs a data migration",
  },
  {
    text: `{ licence?, insurance?`,
    why: "the admin credentials PATCH body as its doc comment writes it: the field's name",
  },
  { text: `Grey Forest`, why: "a city in Texas (proper name)" },
];

/** Generated data, not written by hand (the ZIP table). */
const GENERATED = new Set(["src/lib/geo/zips.data.js"]);

const FILES = repoFiles(["src", "netlify", "content"], /\.(ts|tsx|mts|mjs|js|astro|md|mdx|json|ya?ml|css)$/).filter(
  (f) => !GENERATED.has(f),
);

/** The code's text with every identifier blanked (same length, so line numbers hold). */
function withoutIdentifiers(text: string, file: string): string {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith(".js") ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  let out = text;
  const ranges: [number, number][] = [];
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) ranges.push([node.getStart(source), node.end]);
    // A JSX attribute's name (data-part, aria-labelledby) is code too.
    if (ts.isJsxAttribute(node)) ranges.push([node.name.getStart(source), node.name.end]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const [start, end] of ranges.sort((a, b) => b[0] - a[0]))
    out = out.slice(0, start) + " ".repeat(end - start) + out.slice(end);
  return out;
}

/** What a file says to a reader: all of it, less its code names (an .astro file's frontmatter is code). */
function readable(file: string): string {
  const text = readFileSync(join(REPO_ROOT, file), "utf8");
  if (/\.(m?ts|tsx|mjs|js)$/.test(file)) return withoutIdentifiers(text, file);
  if (file.endsWith(".astro")) {
    const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
    if (m) {
      const start = text.indexOf(m[1]!);
      return text.slice(0, start) + withoutIdentifiers(m[1]!, `${file}.ts`) + text.slice(start + m[1]!.length);
    }
  }
  return text;
}

/** "file:line: word" for each British form left in a text. */
function britishIn(text: string, file = "text"): string[] {
  let cleaned = text;
  for (const { text: allowed } of ALLOWED) cleaned = cleaned.split(allowed).join(" ".repeat(allowed.length));
  const hits: string[] = [];
  for (const m of cleaned.matchAll(BRITISH)) {
    const line = cleaned.slice(0, m.index).split("\n").length;
    hits.push(`${file}:${line}: ${m[0]}`);
  }
  return hits;
}

describe("the source speaks US English", () => {
  it("reads the source files", () => {
    expect(FILES.length).toBeGreaterThan(300);
    expect(FILES).toContain("src/lib/forms/copy.ts");
    expect(FILES.some((f) => f.startsWith("content/"))).toBe(true);
  });

  it("has no British spelling in strings, text, comments or content", () => {
    expect(FILES.flatMap((f) => britishIn(readable(f), f))).toEqual([]);
  });

  it("finds the British forms, leaves the US ones and code names", () => {
    const british =
      "Growth Programme, a licence, the neighbourhood, a centre, organisation, colour, favourite, cancelled, behaviour, analyse, catalogue, judgement, fulfil, enrol, travelled, modelled, labelled, metre, defence, offence, minimise";
    expect(britishIn(british)).toHaveLength(21);
    const us =
      "Growth Program, a license, licensed, the neighborhood, a center, organization, color, favorite, canceled, behavior, analyze, analyses, catalog, judgment, fulfill, enroll, traveled, modeled, labeled, meter, defense, offense, minimize, optimistic, specialist";
    expect(britishIn(us)).toEqual([]);
    // Code names stay out: a stored field, a type, a JSX attribute's name.
    const code = `const { licence } = business.credentials; type L = Licence; <p aria-labelledby="x" />; // a license`;
    expect(britishIn(withoutIdentifiers(code, "x.tsx"))).toEqual([]);
    expect(britishIn(withoutIdentifiers(`// the licence`, "x.ts"))).toEqual(["text:1: licence"]);
    expect(britishIn(`part: "licence"`)).toEqual([]);
  });
});
