/**
 * The pipeline's building blocks on their own: the shared form renderer, same-site paths,
 * image sniffing, city lookup and the limit setting. No Redis needed.
 */
import { describe, expect, it } from "vitest";
import { sniffImageType } from "../../../netlify/lib/blobs.ts";
import { clientIp, sameSitePath } from "../../../netlify/lib/http.ts";
import { renderPage } from "../../../netlify/lib/pages.ts";
import { rateLimitPerMinute } from "../../../netlify/lib/ratelimit.ts";
import { AUDIT_FORM, FIND_PROS_FORM, LEAD_FORMS, QUOTE_FORM } from "../../../src/lib/forms/fields.ts";
import { entriesToFormValues, escapeHtml, renderLeadFormHtml } from "../../../src/lib/forms/render.ts";
import { TINY_PNG } from "../../helpers/functions.ts";

describe("renderLeadFormHtml", () => {
  it("labels every field, carries the honeypot and the hidden inputs", () => {
    for (const form of Object.values(LEAD_FORMS)) {
      const html = renderLeadFormHtml(form, { hidden: { _source: "/x" } });
      expect(html).toMatch(new RegExp(`^<form method="post" action="${form.action}"`));
      for (const field of form.fields) {
        if (field.kind === "checkboxes") expect(html).toContain(`<legend class="block text-sm font-medium text-slate-700 mb-1">${escapeHtml(field.label)}`);
        else expect(html).toContain(`for="${form.name}-${field.name.replace(/\./g, "-")}"`);
      }
      expect(html).toContain('name="company_website"');
      expect(html).toMatch(/name="_started" value="\d{13}"/);
      expect(html).toContain('name="_source" value="/x"');
      expect(html).toContain('class="btn-primary w-full"');
      expect(html).not.toContain("aria-invalid");
    }
    expect(renderLeadFormHtml(FIND_PROS_FORM)).toContain('enctype="multipart/form-data"');
    expect(renderLeadFormHtml(QUOTE_FORM)).toContain("<legend");
    expect(renderLeadFormHtml(QUOTE_FORM, { hidden: { _started: "" } })).toContain('name="_started" value=""');
  });

  it("escapes values, errors and hidden inputs", () => {
    const evil = `"><script>alert(1)</script>`;
    const html = renderLeadFormHtml(AUDIT_FORM, {
      values: { name: evil, currentRevenue: evil, currentChallenges: [evil] },
      errors: { name: evil },
      hidden: { _source: evil },
    });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&quot;&gt;&lt;script&gt;");
  });

  it("entriesToFormValues keeps known string fields only", () => {
    const values = entriesToFormValues(AUDIT_FORM, [
      ["name", "A"],
      ["currentChallenges", "x"],
      ["currentChallenges", "y"],
      ["__proto__", "z"],
      ["photo", new Blob(["x"])],
    ]);
    expect(values).toEqual({ name: "A", currentChallenges: ["x", "y"] });
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
  });

  it("server pages are complete documents", () => {
    const html = renderPage({ title: "T", body: "<p>b</p>" });
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    expect(html).toContain('<meta name="viewport"');
    expect(html).toContain('<a class="brand" href="/">Treeline</a>');
    expect(html).toContain("Back to the site");
  });
});

describe("helpers", () => {
  it("sameSitePath accepts site paths only", () => {
    const req = "https://treeline.example/api/quote";
    expect(sameSitePath("/services/emergency?x=1#y", req)).toBe("/services/emergency");
    expect(sameSitePath("https://treeline.example/blog/a", req)).toBe("/blog/a");
    expect(sameSitePath("https://prod.example/blog/a", req, "https://prod.example")).toBe("/blog/a");
    for (const bad of ["https://evil.example/", "//evil.example/x", "javascript:alert(1)", "x", "/\\evil", "/a\nb", ""]) {
      expect(sameSitePath(bad, req), bad).toBeUndefined();
    }
  });

  it("clientIp takes the context, then Netlify's connection header, never X-Forwarded-For, and shares no 'unknown'", () => {
    const req = new Request("http://x/", { headers: { "x-nf-client-connection-ip": "2.2.2.2", "x-forwarded-for": "3.3.3.3, 4.4.4.4" } });
    expect(clientIp(req, { ip: "1.1.1.1" })).toBe("1.1.1.1");
    expect(clientIp(req, {})).toBe("2.2.2.2");
    expect(clientIp(new Request("http://x/", { headers: { "x-forwarded-for": "3.3.3.3, 4.4.4.4" } }))).toBeNull();
    expect(clientIp(new Request("http://x/"))).toBeNull();
  });

  it("sniffImageType reads signatures, not names", () => {
    const bytes = (...b: number[]) => Uint8Array.from(b);
    const ascii = (s: string) => new TextEncoder().encode(s);
    expect(sniffImageType(TINY_PNG)).toBe("image/png");
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(sniffImageType(ascii("GIF89a...."))).toBe("image/gif");
    expect(sniffImageType(ascii("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(ascii("\0\0\0\x18ftypheic\0\0\0\0"))).toBe("image/heic");
    expect(sniffImageType(ascii("\0\0\0\x18ftypmif1\0\0\0\0"))).toBe("image/heif");
    expect(sniffImageType(ascii("\0\0\0\x18ftypisom\0\0\0\0"))).toBeNull();
    expect(sniffImageType(ascii("<svg xmlns=...>"))).toBeNull();
    expect(sniffImageType(bytes())).toBeNull();
  });

  it("RATE_LIMIT_PER_MINUTE: default 5, 0 disables, junk falls back", () => {
    expect(rateLimitPerMinute({})).toBe(5);
    expect(rateLimitPerMinute({ RATE_LIMIT_PER_MINUTE: "20" })).toBe(20);
    expect(rateLimitPerMinute({ RATE_LIMIT_PER_MINUTE: "0" })).toBe(0);
    expect(rateLimitPerMinute({ RATE_LIMIT_PER_MINUTE: "-3" })).toBe(5);
    expect(rateLimitPerMinute({ RATE_LIMIT_PER_MINUTE: "lots" })).toBe(5);
  });
});
