/**
 * The tiny markup an assistant reply may use, parsed into data the widget renders as
 * React elements (never as HTML): paragraphs, line breaks, **bold**, markdown links to
 * this site's own pages, and the operator's phone number and e-mail, which become
 * tel:/mailto: links. A link to anywhere else is shown as its plain label, so neither a
 * model nor a forged history can put a foreign URL or markup in front of a visitor.
 */
import { STATIC_ROUTES } from "./routes.ts";
import { SITE } from "./site.ts";

export type Inline =
  { type: "text"; text: string } | { type: "strong"; text: string } | { type: "link"; text: string; href: string };
/** Lines of inline runs. */
export type Paragraph = Inline[][];

const ROUTES = new Set<string>(STATIC_ROUTES);
const DIRECTORY_ENTRY = /^\/directory\/[a-z0-9][a-z0-9-]{0,99}$/;

/** The href to render for a link target, or null when it is not one of ours. */
export function safeHref(target: string): string | null {
  const raw = target.trim();
  if (raw === SITE.phoneHref || raw === `mailto:${SITE.email}`) return raw;
  if (!raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return null;
  let url: URL;
  try {
    url = new URL(raw, "https://site.invalid");
  } catch {
    return null;
  }
  if (url.origin !== "https://site.invalid") return null;
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, "") : url.pathname;
  if (!ROUTES.has(path) && !DIRECTORY_ENTRY.test(path)) return null;
  // Fragments name sections (or dialogs, like #quote); a query string has no use here.
  return /^#[A-Za-z][\w-]{0,40}$/.test(url.hash) ? path + url.hash : path;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const TOKEN = new RegExp(
  [
    String.raw`\[([^\]\n]{1,120})\]\(([^()\s]{1,300})\)`,
    String.raw`\*\*([^*\n]{1,200})\*\*`,
    `(${escape(SITE.phone)})`,
    `(${escape(SITE.email)})`,
  ].join("|"),
  "g",
);

function parseLine(line: string): Inline[] {
  const out: Inline[] = [];
  const text = (t: string) => {
    if (!t) return;
    const prev = out.at(-1);
    if (prev?.type === "text") prev.text += t;
    else out.push({ type: "text", text: t });
  };
  let at = 0;
  for (const m of line.matchAll(TOKEN)) {
    text(line.slice(at, m.index));
    at = m.index + m[0].length;
    const [, label, target, bold, phone, email] = m;
    if (label !== undefined) {
      const href = safeHref(target!);
      if (href) out.push({ type: "link", text: label, href });
      else text(label);
    } else if (bold !== undefined) out.push({ type: "strong", text: bold });
    else if (phone !== undefined) out.push({ type: "link", text: phone, href: SITE.phoneHref });
    else if (email !== undefined) out.push({ type: "link", text: email, href: `mailto:${SITE.email}` });
  }
  text(line.slice(at));
  return out;
}

/** Paragraphs split on blank lines; a leading "- " or "* " (a list item) shows as a bullet. */
export function parseMarkup(source: string): Paragraph[] {
  return source
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line) => parseLine(line.replace(/^[-*]\s+/, "• "))),
    )
    .filter((lines) => lines.length > 0);
}
