// Shared by the benchmarks that read the production build: where it is, which pages it has,
// and the command-line flags they take.
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = path.join(ROOT, "dist");

/** `--name value` or `--name=value` among `args`; undefined when absent. */
export const argValue = (args, name) =>
  args.find((a, i) => args[i - 1] === name) ?? args.find((a) => a.startsWith(name + "="))?.slice(name.length + 1);

const DIRECTORY_ENTRY = /^\/directory\/[^/]+$/;

/**
 * The built HTML files as routes, sorted, without the error pages and whatever `skip` names.
 * Directory entries share one template: only the first is kept, because measuring hundreds
 * of them adds minutes, not information.
 */
export function builtRoutes(skip = (_route) => false) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "_astro") walk(full); // hashed assets, never pages
      } else if (entry.name.endsWith(".html")) {
        const rel = path
          .relative(DIST, full)
          .split(path.sep)
          .join("/")
          .replace(/\.html$/, "");
        found.push("/" + rel.replace(/(^|\/)index$/, ""));
      }
    }
  };
  walk(DIST);
  const routes = found
    .map((r) => (r.length > 1 ? r.replace(/\/$/, "") : r))
    .filter((r) => !/^\/(404|500)$/.test(r) && !skip(r))
    .sort();
  const entry = routes.find((r) => DIRECTORY_ENTRY.test(r));
  return routes.filter((r) => !DIRECTORY_ENTRY.test(r) || r === entry);
}
