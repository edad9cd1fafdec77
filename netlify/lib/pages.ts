/**
 * Where the owner functions still find their page shell (owners/page-shell.ts) while they
 * become Astro pages; every other page is an Astro page (src/pages).
 */
export { problemPage, problemPages, renderPage } from "./owners/page-shell.ts";
