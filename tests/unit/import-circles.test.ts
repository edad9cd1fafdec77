/**
 * No import circles anywhere in the code. A module that imports, directly or through others,
 * a module that imports it back cannot be read, tested or moved on its own; a circle that
 * closes only through `import type` or a re-export is still one (it is how the others start).
 * Every relative import counts: static, type-only, re-exports, dynamic `import()`, and the
 * imports of .astro frontmatter and scripts. Packages are outside the graph.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
/** Every folder with code in it. */
const CODE = ["src", "netlify", "runtime", "scripts", "bench", "tests"];
const SOURCE = /\.(ts|tsx|mts|mjs|js|astro)$/;
/** Generated or third-party trees, and the ZIP table (1.5 MB of data, no imports). */
const SKIP = new Set(["node_modules", "results", "zips.data.js"]);
/** How an import without its extension (or of a folder) resolves. */
const TRIES = ["", ".ts", ".tsx", ".mts", ".js", ".mjs", "/index.ts", "/index.tsx"];

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(entry.name)) yield path;
  }
}

/** The code of a file as TypeScript sees imports: an .astro file's frontmatter and scripts. */
function codeOf(file: string, text: string): string {
  if (!file.endsWith(".astro")) return text;
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? "";
  const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  return [frontmatter, ...scripts].join("\n");
}

/** The relative specifiers a file imports or re-exports, in any form. */
function importsOf(file: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(codeOf(file, text), true, true);
  return importedFiles.map((f) => f.fileName).filter((name) => name.startsWith("."));
}

function resolveImport(from: string, specifier: string, exists: (path: string) => boolean): string | undefined {
  const base = resolve(dirname(from), specifier);
  return TRIES.map((end) => base + end).find(exists);
}

/** file -> the files it imports, for `files` given as path -> text. */
function importGraph(files: Map<string, string>, exists: (path: string) => boolean): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets = importsOf(file, text)
      .map((specifier) => resolveImport(file, specifier, exists))
      .filter((path): path is string => path !== undefined && files.has(path));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Each circle once, as the path that closes it ([a, b, a]): one per strongly connected group. */
function circlesOf(graph: Map<string, string[]>): string[][] {
  // Tarjan's strongly connected components, iteratively (the graph has hundreds of files).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== frame.node);
      if (group.length > 1 || edges.includes(frame.node)) groups.push(group);
    }
  }
  return groups.map((group) => closingPath(graph, new Set(group))).sort((a, b) => a[0].localeCompare(b[0]));
}

/** A shortest path from the group's first member (by name) back to itself, inside the group. */
function closingPath(graph: Map<string, string[]>, group: Set<string>): string[] {
  const [start] = [...group].sort();
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!group.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at))
          path.unshift(at);
        return [start, ...path];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

describe("import circles", () => {
  it("finds a circle that closes through a type import and a re-export, and none in a chain", () => {
    const files = new Map([
      ["/x/a.ts", 'import type { B } from "./b.ts";\nexport const a = 1;'],
      ["/x/b.ts", 'export { c } from "./c";\nexport type B = string;'],
      ["/x/c.ts", 'export const c = async () => (await import("./a.ts")).a;'],
      ["/x/d.astro", '---\nimport { a } from "./a.ts";\n---\n<p>{a}</p>\n<script>import "./e.ts";</script>'],
      ["/x/e.ts", 'import "./d.astro";'],
      ["/x/f.ts", 'import { a } from "./a.ts";\nimport { z } from "zod";'],
    ]);
    const circles = circlesOf(importGraph(files, (path) => files.has(path)));
    expect(circles).toEqual([
      ["/x/a.ts", "/x/b.ts", "/x/c.ts", "/x/a.ts"],
      ["/x/d.astro", "/x/e.ts", "/x/d.astro"],
    ]);
    expect(
      circlesOf(
        new Map([
          ["/x/f.ts", ["/x/a.ts"]],
          ["/x/a.ts", []],
        ]),
      ),
    ).toEqual([]);
  });

  it(`none in ${CODE.join("/, ")}/`, () => {
    const files = new Map<string, string>();
    for (const dir of CODE)
      for (const file of sourceFiles(join(ROOT, dir))) files.set(file, readFileSync(file, "utf8"));
    const exists = (path: string) => existsSync(path) && statSync(path).isFile();
    const circles = circlesOf(importGraph(files, exists)).map((path) =>
      path.map((file) => relative(ROOT, file)).join(" -> "),
    );
    expect(files.size).toBeGreaterThan(300);
    expect(circles).toEqual([]);
  });
});
