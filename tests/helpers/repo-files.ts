/**
 * The repository's own files for the tests that read the code itself (boundaries, comments):
 * each as a repository path with "/" separators, node_modules and dot folders left out.
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** The repository's root folder. */
export const REPO_ROOT = join(import.meta.dirname, "..", "..");

function* walk(dir: string, name: RegExp): Generator<string> {
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* walk(path, name);
    else if (name.test(entry)) yield path;
  }
}

/** Files under `folders` whose names match `name`, sorted. */
export function repoFiles(folders: readonly string[], name: RegExp): string[] {
  return folders
    .flatMap((top) => [...walk(join(REPO_ROOT, top), name)])
    .map((path) => relative(REPO_ROOT, path).split(sep).join("/"))
    .sort();
}
