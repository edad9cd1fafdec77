/**
 * The owner pages' string shell, until they are Astro pages (src/pages/owner): the header,
 * the inline stylesheet and the problem page the owner functions still render. The rest of
 * the site's pages no longer use it; it goes when the last owner page does.
 */
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { SITE } from "../../../src/lib/site.ts";

// Minimal stand-ins for the Tailwind utilities the forms and confirmations use (src/views/leads,
// FORM_CLASSES), plus the page chrome, in the site's palette. Amber on white only reaches 3:1,
// so amber buttons use large bold text.
const STYLE = `
:root{--forest:#24583b;--forest-dark:#1a3b29;--forest-50:#f1f8f3;--amber:#d95a06;--amber-dark:#b43d09;--ink:#1e293b;--muted:#475569}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:#f8f6f3;line-height:1.55}
a{color:var(--forest)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:2px solid var(--amber);outline-offset:2px}
.skip{position:absolute;left:-10000px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem 1rem;z-index:10}
.site-header{background:var(--forest);color:#fff;border-bottom:4px solid var(--amber)}
.site-header .bar{max-width:48rem;margin:0 auto;padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
.site-header a{color:#fff;text-decoration:none;font-weight:700}
.site-header .brand{font-size:1.25rem}
.site-header .phone{white-space:nowrap}
main{max-width:48rem;margin:0 auto;padding:1.5rem 1rem 3rem}
.card{background:#fff;border:1px solid #dcefe1;border-radius:1rem;padding:1.5rem;box-shadow:0 1px 2px rgb(13 33 22/.06),0 4px 16px rgb(13 33 22/.06)}
h1{font-size:1.75rem;line-height:1.2;margin:0 0 .5rem;color:#0d2116}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem;color:#0d2116}
.lead{color:var(--muted);margin:0 0 1.25rem}
.estimate{font-size:2rem;font-weight:800;color:var(--forest);margin:.25rem 0}
.note{font-size:.9rem;color:var(--muted)}
.checks{list-style:none;padding:0;margin:.5rem 0}
.checks li{padding-left:1.6rem;position:relative;margin:.35rem 0}
.checks li::before{content:"\\2713";position:absolute;left:0;color:var(--forest);font-weight:700}
.matches{list-style:none;padding:0;margin:.5rem 0;display:grid;gap:.75rem}
.matches li{border:1px solid #dcefe1;border-radius:.75rem;padding:.75rem 1rem;background:var(--forest-50)}
.matches .name{font-weight:700}
.call{display:inline-block;margin-top:1rem;font-weight:700;font-size:1.2rem;white-space:nowrap}
.back{display:inline-block;margin-top:1.5rem}
.site-footer{max-width:48rem;margin:0 auto;padding:0 1rem 2rem;color:var(--muted);font-size:.875rem}
.lead-form{display:grid;gap:1rem;margin:0}
.lead-form label,.lead-form legend{display:block;font-size:.875rem;font-weight:500;color:#334155;margin-bottom:.25rem}
.lead-form fieldset{margin:0;min-width:0;border:0;padding:0}
.lead-form fieldset fieldset,.lead-form fieldset:has(>div>div>input:not([type=checkbox])){border:1px solid #cbd5e1;border-radius:.5rem;padding:1rem}
.lead-form fieldset div{display:grid;gap:.5rem}
.lead-form label:has(input[type=checkbox]){display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
.lead-form input:not([type=checkbox]),.lead-form select,.lead-form textarea{display:block;width:100%;font:inherit;font-size:1rem;background:#fff;color:inherit;min-height:2.75rem;border:1px solid #cbd5e1;border-radius:.5rem;padding:.625rem .75rem}
.lead-form [aria-invalid=true]{border-color:#b91c1c;box-shadow:0 0 0 1px #b91c1c}
.lead-form p[id$="-error"]{margin:.25rem 0 0;font-size:.875rem;color:#b91c1c}
.lead-form [role=alert]{border:1px solid #fca5a5;background:#fef2f2;color:#991b1b;border-radius:.5rem;padding:1rem;font-size:.875rem}
.lead-form [role=alert] ul{margin:.5rem 0 0;padding-left:1.25rem}
.lead-form [aria-hidden=true]{color:#b91c1c}
.lead-confirmation ul{list-style:none;padding:0;margin:.5rem 0}
.lead-confirmation li{display:flex;gap:.5rem;margin:.35rem 0}
.lead-confirmation svg{width:1.25rem;height:1.25rem;flex-shrink:0;color:var(--forest)}
.lead-confirmation section{border:1px solid #dcefe1;border-radius:.75rem;padding:1rem;margin-top:1rem;background:var(--forest-50)}
.lead-confirmation h3{font-size:1.05rem;margin:0}
.receipt{border:2px solid var(--forest);border-radius:.75rem;padding:1rem;margin:1rem 0;background:var(--forest-50)}
.receipt p{margin:.25rem 0}
.receipt .reference{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:1.25rem;letter-spacing:.05em}
.emergency-call{border:2px solid #b91c1c;border-radius:.75rem;padding:1rem;margin:1rem 0;background:#fef2f2}
.emergency-call p{margin:.25rem 0}
.emergency-call p:first-child{font-weight:700;font-size:1.15rem;color:#7f1d1d}
.emergency-call a{margin:.5rem 0}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.btn-primary,.btn-secondary{display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;padding:.625rem 1.25rem;border:0;border-radius:.5rem;background:var(--amber);color:#fff;font:inherit;font-size:1.2rem;font-weight:700;cursor:pointer}
.btn-primary:hover{background:var(--amber-dark)}
.w-full{width:100%}
`;

/** A complete page: header with the brand and phone, the content, a way back. */
export function renderPage(options: { title: string; body: string }): string {
  const title = `${options.title} | ${SITE.name}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site-header"><div class="bar"><a class="brand" href="/">${escapeHtml(SITE.name)}</a><a class="phone" href="${escapeHtml(SITE.phoneHref)}">Call ${escapeHtml(SITE.phone)}</a></div></header>
<main id="main"><div class="card">
${options.body}
<p><a class="back" href="/">Back to the site</a></p>
</div></main>
<footer class="site-footer"><p>&copy; ${SITE.copyrightYear} ${escapeHtml(SITE.name)}. Questions? Email <a href="mailto:${escapeHtml(SITE.email)}">${escapeHtml(SITE.email)}</a>.</p></footer>
</body>
</html>
`;
}

const callLink = (text = `Call ${SITE.phone}`) =>
  `<a class="call" href="${escapeHtml(SITE.phoneHref)}">${escapeHtml(text)}</a>`;
/** A limit or an outage, explained, with the phone as the way forward. */
export function problemPage(title: string, message: string): string {
  const body = `<h1>${escapeHtml(title)}</h1><p class="lead">${escapeHtml(message)}</p><p>You can also reach us by phone:</p>${callLink()}`;
  return renderPage({ title, body });
}

/** An endpoint's error pages: the heading for each status, "Something went wrong" for the rest. */
export const problemPages =
  (titles: Readonly<Record<number, string>>) =>
  (status: number, message: string): string =>
    problemPage(titles[status] ?? "Something went wrong", message);
