/**
 * A US site writes US English: no British spelling in what a visitor reads or hears on any
 * built page (text, dialogs and the chat panel included, and the labels a screen reader
 * speaks). Attribute values that are only state ("data-view=minimised") are not read.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DIST, builtPage } from "../helpers/dist.ts";

const routes = readdirSync(DIST, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".html") && !f.startsWith("_"))
  .map((f) => (f === "index.html" ? "/" : `/${f.replace(/\.html$/, "")}`))
  .sort();

/** British forms a writer slips into; each matches the word's start, so plurals and tenses count. */
const BRITISH =
  /\b(programmes?|licences?|neighbour\w*|centre[sd]?|colour\w*|behaviour\w*|favour\w*|organis\w*|optimis\w*|minimis\w*|recognis\w*|authoris\w*|finalis\w*|stabilis\w*|fertilis\w*|energis\w*|cancell(ed|ing)|labour\w*|catalogue\w*|analys(e|ed|ing))\b/gi;

/** What the page says: its text (scripts and styles aside) and its spoken labels. */
function wordsOf(route: string): string {
  const { document } = builtPage(route);
  const body = document.body.cloneNode(true) as HTMLElement;
  for (const el of body.querySelectorAll("script, style, template")) el.remove();
  const labels = [...body.querySelectorAll("[aria-label], [alt], [title], [placeholder]")].flatMap((el) =>
    ["aria-label", "alt", "title", "placeholder"].map((name) => el.getAttribute(name) ?? ""),
  );
  return [document.title, body.textContent ?? "", ...labels].join(" ");
}

describe("built pages speak US English", () => {
  it("finds every page", () => {
    expect(routes.length).toBeGreaterThan(30);
  });

  it.each(routes)("%s", (route) => {
    expect(wordsOf(route).match(BRITISH) ?? []).toEqual([]);
  });

  it("recognizes the British forms and leaves the US ones", () => {
    const british = "programme licence Licences neighbourhood centre behaviour cancelled Minimise colour";
    expect(british.match(BRITISH)).toHaveLength(9);
    const us = "program license licenses neighborhood center behavior canceled Minimize color licensed";
    expect(us.match(BRITISH)).toBeNull();
  });
});
