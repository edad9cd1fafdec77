import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { finishStaticPage, inlineScriptHashes, pruneScriptHashes } from "../../src/integrations/finish-html";

const hash = (code: string) => `'sha256-${createHash("sha256").update(code).digest("base64")}'`;
const A = "console.log(1)";
const B = "document.body.dataset.b=`x`";
const C = "alert(3)";
const policy = `default-src 'self'; script-src 'self' ${hash(A)} ${hash(B)} ${hash(C)}; style-src 'self'`;

describe("inlineScriptHashes", () => {
  it("hashes inline scripts, not external or data scripts", () => {
    const html = `<script type="module">${A}</script><script src="/x.js"></script><script type="application/ld+json">{"a":1}</script><script>${B}</script>`;
    expect(inlineScriptHashes(html)).toEqual(new Set([hash(A), hash(B)]));
  });
});

describe("pruneScriptHashes", () => {
  it("keeps only the hashes of scripts the page carries, and every other source", () => {
    const pruned = pruneScriptHashes(policy, `<body><script type="module">${A}</script></body>`);
    expect(pruned).toBe(`default-src 'self'; script-src 'self' ${hash(A)}; style-src 'self'`);
  });

  it("a page without inline scripts keeps 'self' and loses every hash", () => {
    expect(pruneScriptHashes(policy, "<p>no scripts</p>")).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'",
    );
  });
});

describe("finishStaticPage", () => {
  it("prunes the <meta> policy to the page's scripts", () => {
    const html = `<html><head><meta http-equiv="content-security-policy" content="${policy}"></head><body><script>${C}</script></body></html>`;
    expect(finishStaticPage(html)).toContain(
      `content="default-src 'self'; script-src 'self' ${hash(C)}; style-src 'self'"`,
    );
  });

  it("leaves a page without a policy untouched", () => {
    const html = "<html><head></head><body><script>alert(1)</script></body></html>";
    expect(finishStaticPage(html)).toBe(html);
  });
});
