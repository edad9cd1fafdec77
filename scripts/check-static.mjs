// Static checks on the production build: every page is valid HTML (html-validate) and every
// internal link, image and asset resolves. The crawl runs against the same server as
// `npm start` (Netlify's pretty-URL rules: /blog is blog.html although blog/ is also a folder),
// started here on a free port with the embedded store. Pages rendered on demand (the
// directory, its paged lists and business pages) are not in dist/: they are validated as the
// crawl reaches them, plus the unknown-business 404; every business of the seed must be among
// them, its h1 its name. Every page's script policy allows exactly the inline scripts the
// page carries: none blocked, none extra.
import { createHash } from "node:crypto";
import http from "node:http";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { HtmlValidate, FileSystemConfigLoader, formatterFactory } from "html-validate";
import { LinkChecker } from "linkinator";
import { parseHtml } from "../tests/helpers/dist.ts";
import { startServe } from "../tests/helpers/serve.ts";
import seed from "../content/directory/businesses.json" with { type: "json" };

const dist = path.resolve("dist");

async function htmlFiles(dir) {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "_astro" ? [] : htmlFiles(full);
      return entry.name.endsWith(".html") ? [full] : [];
    }),
  );
  return files.flat();
}

/** What differs between the page's inline scripts and the script hashes its policy allows. */
function policyMismatch(html, policy) {
  const carried = new Set();
  for (const [, attributes, code] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc=|application\/(ld\+)?json/i.test(attributes)) continue;
    carried.add(`sha256-${createHash("sha256").update(code).digest("base64")}`);
  }
  const allowed = new Set(String(policy ?? "").match(/sha256-[A-Za-z0-9+/=]+/g) ?? []);
  const blocked = [...carried].filter((hash) => !allowed.has(hash));
  const extra = [...allowed].filter((hash) => !carried.has(hash));
  return blocked.length || extra.length
    ? `${blocked.length} inline script(s) not allowed, ${extra.length} hash(es) for scripts not in the page`
    : null;
}
let policyFailures = 0;
function checkPolicy(where, html, policy) {
  const mismatch = policyMismatch(html, policy);
  if (!mismatch) return;
  policyFailures++;
  console.error(`script policy: ${where}: ${mismatch}`);
}

const pages = await htmlFiles(dist);
if (pages.length === 0) {
  console.error("check-static: no HTML in dist/ (run npm run build first)");
  process.exit(1);
}

// The server starts (and seeds its store) in its own process while the built pages validate here.
const starting = startServe({ NODE_ENV: "test" });
starting.catch(() => {}); // Awaited below, after the built pages.

const validator = new HtmlValidate(new FileSystemConfigLoader());
const format = formatterFactory("stylish");
let invalid = 0;
for (const file of pages) {
  const html = await readFile(file, "utf8");
  checkPolicy(
    path.relative(dist, file),
    html,
    /<meta http-equiv="content-security-policy" content="([^"]*)"/i.exec(html)?.[1],
  );
  const report = await validator.validateFile(file);
  if (!report.valid) {
    invalid++;
    console.error(format(report.results));
  }
}
console.log(`html-validate: ${pages.length - invalid} valid, ${invalid} invalid of ${pages.length} pages`);

const served = await starting;
const { origin } = served;
// A failed check exits early: the server must not outlive it.
process.on("exit", () => {
  try {
    process.kill(served.pid, "SIGTERM");
  } catch {
    // Already gone.
  }
});

const checker = new LinkChecker();
const broken = [];
let checked = 0;
/** Internal pages the crawl reached that are not files in dist/ (rendered on demand). */
const onDemand = new Set([`${origin}/directory/no-such-business`]);
checker.on("link", (result) => {
  checked++;
  if (result.state === "OK" && result.url.startsWith(`${origin}/directory`)) onDemand.add(result.url);
  if (result.state === "BROKEN") broken.push(`${result.status} ${result.url} (on ${result.parent})`);
});
const entryPoints = pages
  .filter((file) => !file.endsWith("404.html"))
  .map(
    (file) =>
      `${origin}/${path
        .relative(dist, file)
        .replace(/\\/g, "/")
        .replace(/(index)?\.html$/, "")}`,
  )
  // An entry point of its own: linkinator recurses only below the entry point a link was found
  // from and checks a URL once, so reached from another page /directory would get a HEAD only.
  .concat(`${origin}/directory`);
await checker.check({
  path: entryPoints,
  recurse: true,
  // Only the site itself: external URLs (and the configured canonical origin) are not reachable here.
  linksToSkip: ["^https?://(?!127\\.0\\.0\\.1[:/])", "^mailto:", "^tel:"],
  concurrency: 25,
});
for (const line of broken) console.error(`broken link: ${line}`);
console.log(`links: ${checked - broken.length} ok, ${broken.length} broken`);

let onDemandInvalid = 0;
let onDemandPages = 0;
/** slug -> the h1 of its page, for every business page the crawl reached. */
const businessHeadings = new Map();
/**
 * The page at `url`: its status, headers and, when it is HTML, its text (a failure throws when
 * awaited). A connection of its own per page: validating blocks this process for a moment, and
 * a kept-alive connection the server closed meanwhile failed a fetch ("other side closed").
 */
function fetchPage(url) {
  const page = new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const isHtml = res.headers["content-type"]?.startsWith("text/html");
          resolve({ url, res, html: isHtml ? Buffer.concat(chunks).toString("utf8") : null });
        });
      })
      .on("error", reject);
  });
  page.catch(() => {});
  return page;
}
// A few pages are fetched ahead while one validates: the server renders in its own process.
const AHEAD = 4;
const urls = [...onDemand];
const ahead = urls.slice(0, AHEAD).map(fetchPage);
for (let i = 0; i < urls.length; i++) {
  if (i + AHEAD < urls.length) ahead.push(fetchPage(urls[i + AHEAD]));
  const { url, res, html } = await ahead.shift();
  if (html === null) continue;
  onDemandPages++;
  const slug = /^\/directory\/([^/?#]+)$/.exec(new URL(url).pathname)?.[1];
  if (slug && res.statusCode >= 200 && res.statusCode < 300)
    businessHeadings.set(slug, parseHtml(html).querySelector("h1")?.textContent ?? null);
  checkPolicy(url, html, res.headers["content-security-policy"]);
  const report = await validator.validateString(html, url);
  if (!report.valid) {
    onDemandInvalid++;
    console.error(format(report.results));
  }
}
console.log(
  `html-validate (on demand): ${onDemandPages - onDemandInvalid} valid, ${onDemandInvalid} invalid of ${onDemandPages} pages`,
);
console.log(`script policy: ${pages.length + onDemandPages - policyFailures} exact, ${policyFailures} not`);

// Every business of the seed is reachable from /directory and its page is that business.
let businessFailures = 0;
for (const business of seed) {
  if (!businessHeadings.has(business.slug)) {
    businessFailures++;
    console.error(`directory: /directory/${business.slug} was not reached from /directory`);
  } else if (businessHeadings.get(business.slug) !== business.name) {
    businessFailures++;
    console.error(
      `directory: /directory/${business.slug} has h1 ${JSON.stringify(businessHeadings.get(business.slug))}`,
    );
  }
}
console.log(`business pages: ${seed.length - businessFailures} of ${seed.length} reached with their name as h1`);

const failed = invalid + broken.length + onDemandInvalid + policyFailures + businessFailures;
console.log(`static: ${failed === 0 ? pages.length + checked + onDemandPages : 0} passed, ${failed} failed`);
await served.stop();
process.exit(failed === 0 ? 0 : 1);
