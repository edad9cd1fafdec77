// Static checks on the production build: every built page is valid HTML
// (html-validate) and every internal link, image and asset resolves. The crawl runs
// against the same server as `npm start` (Netlify's pretty-URL rules: /blog is
// blog.html although blog/ is also a folder), started here on its own port.
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { HtmlValidate, FileSystemConfigLoader, formatterFactory } from "html-validate";
import { LinkChecker } from "linkinator";

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

const pages = await htmlFiles(dist);
if (pages.length === 0) {
  console.error("check-static: no HTML in dist/ (run npm run build first)");
  process.exit(1);
}

const validator = new HtmlValidate(new FileSystemConfigLoader());
const format = formatterFactory("stylish");
let invalid = 0;
for (const file of pages) {
  const report = await validator.validateFile(file);
  if (!report.valid) {
    invalid++;
    console.error(format(report.results));
  }
}
console.log(`html-validate: ${pages.length - invalid} valid, ${invalid} invalid of ${pages.length} pages`);

const port = Number(process.env.STATIC_CHECK_PORT || 8897);
const origin = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ["scripts/serve.mjs"], {
  env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "test" },
  stdio: ["ignore", "ignore", "inherit"],
});
const stopServer = () => server.exitCode === null && server.kill("SIGTERM");
process.on("exit", stopServer);
for (let attempt = 0; ; attempt++) {
  try {
    if ((await fetch(`${origin}/`)).ok) break;
  } catch {}
  if (attempt > 100 || server.exitCode !== null) {
    console.error("check-static: the server did not start");
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const checker = new LinkChecker();
const broken = [];
let checked = 0;
checker.on("link", (result) => {
  checked++;
  if (result.state === "BROKEN") broken.push(`${result.status} ${result.url} (on ${result.parent})`);
});
const entryPoints = pages
  .filter((file) => !file.endsWith("404.html"))
  .map((file) => `${origin}/${path.relative(dist, file).replace(/\\/g, "/").replace(/(index)?\.html$/, "")}`);
await checker.check({
  path: entryPoints,
  recurse: true,
  // Only the site itself: external URLs (and the configured canonical origin) are not reachable here.
  linksToSkip: ["^https?://(?!127\\.0\\.0\\.1[:/])", "^mailto:", "^tel:"],
  concurrency: 25,
});
for (const line of broken) console.error(`broken link: ${line}`);
console.log(`links: ${checked - broken.length} ok, ${broken.length} broken`);

const failed = invalid + broken.length;
console.log(`static: ${failed === 0 ? pages.length + checked : 0} passed, ${failed} failed`);
stopServer();
process.exit(failed === 0 ? 0 : 1);
