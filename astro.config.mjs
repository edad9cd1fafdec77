// @ts-check
import { defineConfig } from "astro/config";
import netlify from "@astrojs/netlify";
import react from "@astrojs/react";
import mdx from "@astrojs/mdx";
import sitemap from "@astrojs/sitemap";
import tailwindcss from "@tailwindcss/vite";
import finishHtml from "./src/integrations/finish-html.ts";
import icons from "./src/integrations/icons.ts";
import localFunctions from "./src/integrations/local-functions.ts";
import onDemandRoutes from "./src/integrations/on-demand-routes.ts";
import { siteUrl } from "./src/lib/env.ts";

// The canonical origin is needed at build time for canonical/OG URLs and the sitemap.
// Netlify sets URL on production builds; SITE_URL lets an operator override it.
const site = siteUrl();

export default defineConfig({
  site,
  output: "static",
  trailingSlash: "never",
  build: { format: "file" },
  server: { host: "127.0.0.1" },
  adapter: netlify({
    // Edge functions are not used; their Deno-based emulation is slow and needs network.
    devFeatures: { edgeFunctions: false, images: false, environmentVariables: false },
    imageCDN: false,
  }),
  integrations: [
    react(),
    mdx(),
    sitemap({
      // The static pages only: /sitemap-index.xml is on demand and adds the directory sitemaps
      // from the store (src/pages/sitemap-index.xml.ts); /directory is in the first of those.
      filenameBase: "sitemap-pages",
      filter: (page) => !/^\/(admin|directory)(\/|$)/.test(new URL(page).pathname),
    }),
    finishHtml(),
    icons(),
    localFunctions(),
    onDemandRoutes(),
  ],
  // No page shows highlighted code, and Shiki's inline styles would need 'unsafe-inline' under the CSP.
  markdown: { syntaxHighlight: false },
  vite: {
    plugins: [tailwindcss()],
    build: {
      rolldownOptions: {
        onwarn(warning, warn) {
          // Astro's MDX output starts with the "use astro:head-inject" directive, which the
          // bundler reports for every .mdx (one line per blog post). Harmless: Astro reads the
          // directive before bundling. Upstream: https://github.com/withastro/astro/issues/18087
          if (warning.code === "MODULE_LEVEL_DIRECTIVE" && warning.message.includes('"use astro:head-inject"')) return;
          warn(warning);
        },
      },
    },
  },
  // Per-page CSP <meta>: Astro hashes every script and style it emits, so script-src needs
  // no 'unsafe-inline' and an injected <script> cannot run. frame-ancestors cannot live in a
  // <meta>; netlify.toml sends it as a header.
  security: {
    csp: {
      directives: [
        "default-src 'self'",
        // Business photos come from their owners' sites; data: for the tiny placeholders.
        "img-src 'self' data: https:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "manifest-src 'self'",
      ],
      styleDirective: {
        // Radix (scroll lock) and React write style elements and attributes at run time, which
        // no build-time hash can cover. Styles cannot run code, so they stay permissive. Only
        // the -elem and -attr kinds: style-src itself is Astro's 'self' (a resource of its own
        // there would be shadowed by the two, which Astro warns about).
        resources: [
          { resource: "'self'", kind: "element" },
          { resource: "'unsafe-inline'", kind: "element" },
          { resource: "'unsafe-inline'", kind: "attribute" },
        ],
      },
    },
  },
});
