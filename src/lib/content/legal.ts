/**
 * The legal documents (/privacy, /terms): one YAML file each in content/legal/, drawn by
 * src/pages/[document].astro. Merged in src/content.config.ts.
 */
import { defineCollection } from "astro:content";
import { glob } from "astro/loaders";
import { z } from "astro/zod";
import { SITE } from "../site.ts";
import { anchorId, fillTokens, withFacts } from "./shapes.ts";

/**
 * Legal documents, one YAML file each in content/legal/ (id = file name). `{phone}` and
 * `{email}` in any text are replaced with the operator's details from src/lib/site.ts.
 */
const legalDocuments = defineCollection({
  loader: glob({ pattern: "*.yaml", base: "./content/legal" }),
  schema: withFacts(
    z.object({
      /** The page's h1. */
      title: z.string().min(1),
      /** Date shown as "Last updated: ...". */
      updated: z.string().min(1),
      /** Meta description. */
      description: z.string().min(40).max(170),
      /** Opening paragraph. */
      intro: z.string().min(1),
      /** Numbered sections. */
      sections: z
        .array(
          z.object({
            /** Anchor id. */
            id: anchorId,
            /** Section heading (h2). */
            heading: z.string().min(1),
            /** Paragraphs. */
            paragraphs: z.array(z.string()).default([]),
            /** Optional bullet list after the paragraphs. */
            list: z.array(z.string()).optional(),
            /** Optional paragraph after the list. */
            after: z.string().optional(),
          }),
        )
        .min(3),
    }),
  ),
});

/** Fills the contact tokens of legal text from the one site config. */
export function fillContact(text: string): string {
  return fillTokens(text, { phone: SITE.phone, email: SITE.email, name: SITE.name });
}

export const legalCollections = { legalDocuments };
