// @ts-check
// Lints the JavaScript and TypeScript (not .astro). Syntax-only typescript-eslint rules, no
// type information, so a full run stays fast. `npm run lint` runs it with Prettier's check.
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** @typedef {{ regex: string, message: string }} Pattern */

/** @type {Pattern} */
const browserOnly = {
  regex: "(^|/)(src/)?(islands|components)(/|$)",
  message: "Server code does not import islands or components: move what both sides need to src/lib or src/views.",
};
/** @type {Pattern} */
const netlify = {
  regex: "(^|/)netlify/",
  message: "Only server code imports from netlify/.",
};
/** @type {Pattern} */
const serverOnly = {
  regex:
    "(^|/)netlify/|(^|/)lib/env(\\.ts)?$|(^|/)lib/geo/places(\\.ts)?$|^node:|^react-dom/server$|^@upstash/|^ioredis|^@anthropic-ai/|^@netlify/|^zipcodes$|^csv-stringify",
  message:
    "Browser code does not import server-only modules (netlify/, src/lib/env.ts, node:, Redis, Claude, the ZIP data).",
};
/** @type {Pattern} */
const pagesToNetlify = {
  regex: "(^|/)netlify/(?!lib/directory-page(\\.ts)?$|lib/page-data/[\\w-]+(\\.ts)?$)",
  message: "Pages reach netlify/ through netlify/lib/page-data/*.ts (and netlify/lib/directory-page.ts) only.",
};

export default defineConfig(
  {
    ignores: ["dist/", ".netlify/", ".astro/", ".data/", "node_modules/", "bench/results/", "test-results/"],
  },
  {
    files: ["**/*.{js,mjs,ts,tsx,mts}"],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `_name` marks a binding left unused on purpose (a field destructured away, a required parameter).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["src/islands/**/*.{ts,tsx}", "src/views/**/*.{ts,tsx}"],
    extends: [reactHooks.configs.flat.recommended],
  },

  // --- import boundaries ---------------------------------------------------------------------
  // Server code (functions, the local runtime, scripts, build integrations) reaches the browser's code only
  // through src/lib (domain) and src/views (React markup both sides render).
  {
    files: ["netlify/**", "runtime/**", "scripts/**", "src/integrations/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [browserOnly] }] },
  },
  // What runs in the browser never imports server code: not netlify/, not the configuration
  // (secrets), not packages that only work (or only belong) on a server.
  {
    files: ["src/islands/**", "src/components/**", "src/scripts/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [serverOnly] }] },
  },
  // React markup the functions render too (no-JS pages): neither side's own code.
  {
    files: ["src/views/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [serverOnly, browserOnly] }] },
  },
  // The domain is shared by both sides, so it imports neither side.
  {
    files: ["src/lib/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [browserOnly, netlify] }] },
  },
  // The on-demand pages reach the store and the functions' helpers through the page-data
  // modules, which load what a page shows and hand back plain data.
  {
    files: ["src/pages/**", "src/layouts/**", "src/middleware.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [pagesToNetlify] }] },
  },
);
