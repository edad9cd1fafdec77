/**
 * Narrows the Netlify adapter's SSR function from every path (`/*`) to the routes that are
 * rendered on demand (the directory pages and sitemaps, the personal pages), and to GET and
 * HEAD: a page's form posts go to the function that shares its path with `config.method:
 * "POST"`, so each path has one reader and one writer. Anything else stays with the CDN:
 * static files, the API functions and, for unknown paths, the static 404.html with the
 * security headers netlify.toml gives static files (a function's answer gets none of them).
 * `npm start` (runtime/serve.mjs) loads the written entry, so it routes the same way.
 */
import { readFile, writeFile } from "node:fs/promises";
import type { AstroIntegration } from "astro";

/** Where @astrojs/netlify writes its function entry. */
export const SSR_ENTRY = ".netlify/v1/functions/ssr/ssr.mjs";

/** The methods the page function answers; a form post is a function's. */
export const SSR_METHODS = ["GET", "HEAD"] as const;

/** "/directory/[slug]" -> "/directory/:slug" (Netlify's URLPattern syntax). */
export function netlifyPath(pattern: string): string {
  return pattern.replace(/\[\.\.\.([^\]]+)\]/g, ":$1*").replace(/\[([^\]]+)\]/g, ":$1");
}

export default function onDemandRoutes(): AstroIntegration {
  let paths: string[] = [];
  let root: URL;
  return {
    name: "treeline:on-demand-routes",
    hooks: {
      "astro:config:done": ({ config }) => {
        root = config.root;
      },
      "astro:routes:resolved": ({ routes }) => {
        paths = routes
          .filter((r) => !r.isPrerendered && r.origin === "project" && (r.type === "page" || r.type === "endpoint"))
          .map((r) => netlifyPath(r.pattern));
      },
      // The adapter runs first (Astro puts it ahead of the integrations) and has written the entry.
      "astro:build:done": async ({ logger }) => {
        if (paths.length === 0) return;
        const file = new URL(SSR_ENTRY, root);
        const source = await readFile(file, "utf8");
        const wildcard = /path:\s*'\/\*',/;
        if (!wildcard.test(source))
          throw new Error(`${SSR_ENTRY}: no "path: '/*'" to narrow; check the @astrojs/netlify version`);
        // Netlify does not set NODE_ENV for functions, and the traced React then runs its
        // development build (slower, and noisy about the renderer probes). Set before any import.
        await writeFile(new URL("./production-env.mjs", file), 'process.env.NODE_ENV ??= "production";\n');
        const narrowed = source.replace(
          wildcard,
          `path: ${JSON.stringify(paths)}, method: ${JSON.stringify(SSR_METHODS)},`,
        );
        await writeFile(file, `import "./production-env.mjs";\n${narrowed}`);
        logger.info(`SSR function serves ${SSR_METHODS.join("/")} ${paths.join(", ")}`);
      },
    },
  };
}
