/**
 * The pipeline's building blocks on their own: the lead form's server rendering, same-site paths,
 * image sniffing, city lookup and the limit setting. No Redis needed.
 */
import { describe, expect, it } from "vitest";
import { sniffImageType } from "../../netlify/lib/blobs.ts";
import { clientIp, sameSitePath } from "../../netlify/lib/http.ts";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { receiptOf } from "../../src/lib/receipt.ts";
import { LeadForm, labelClass } from "../../src/views/leads/LeadForm.tsx";
import { Received } from "../../src/views/leads/Received.tsx";
import type { ReceivedLead } from "../../src/lib/received.ts";
import { AUDIT_CONFIRMATION, QUOTE_CONFIRMATION } from "../../src/lib/forms/copy.ts";
import { parseEnv } from "../../src/lib/env.ts";
import { AUDIT_FORM, FIND_PROS_FORM, LEAD_FORMS, QUOTE_FORM } from "../../src/lib/forms/fields.ts";
import { entriesToFormValues, escapeHtml } from "../../src/lib/forms/markup.ts";
import { CHALLENGES } from "../../src/lib/options.ts";
import { TINY_PNG } from "../helpers/functions.ts";

const renderForm = (props: Parameters<typeof LeadForm>[0]) => renderToStaticMarkup(createElement(LeadForm, props));

describe("LeadForm on the server (the prebuilt dialogs and the no-JS pages)", () => {
  it("is a real post form: labels every field, carries the honeypot and the hidden inputs", () => {
    for (const form of Object.values(LEAD_FORMS)) {
      const html = renderForm({ form, hidden: { _source: "/x" } });
      expect(html).toMatch(/^<form /);
      expect(html.slice(0, html.indexOf(">"))).toContain(`id="${form.name}-form"`);
      expect(html.slice(0, html.indexOf(">"))).toContain(`action="${form.action}"`);
      expect(html.slice(0, html.indexOf(">"))).toContain(`method="post"`);
      for (const field of form.fields) {
        if (field.kind === "checkboxes")
          expect(html).toContain(`<legend class="${labelClass}">${escapeHtml(field.label)}`);
        else if (field.kind !== "hidden")
          expect(html).toContain(`for="${form.name}-${field.name.replace(/\./g, "-")}"`);
      }
      expect(html).toContain('name="company_website"');
      expect(html).toContain('name="_started" value=""');
      expect(html).toContain('name="_source" value="/x"');
      expect(html).toContain('name="_idempotencyKey" value=""');
      expect(html).toContain(`>${escapeHtml(form.submit)}</button>`);
      expect(html).not.toContain('aria-invalid="');
      expect(html).not.toContain('role="alert"');
    }
    expect(renderForm({ form: FIND_PROS_FORM }).toLowerCase()).toContain('enctype="multipart/form-data"');
    expect(renderForm({ form: FIND_PROS_FORM })).toContain('type="file"');
    expect(renderForm({ form: QUOTE_FORM })).toContain("<legend");
  });

  it("shows values, ticks, inline messages and a summary in form order", () => {
    const html = renderForm({
      form: AUDIT_FORM,
      defaults: { name: "Ann", currentRevenue: "100k-250k", currentChallenges: [CHALLENGES[1]!.value] },
      initialErrors: { growthGoals: "Pick a goal", name: "Name please" },
    });
    expect(html).toContain('value="Ann"');
    expect(html).toMatch(/<option value="100k-250k" selected="">/);
    expect(html).toContain(`checked="" value="${escapeHtml(CHALLENGES[1]!.value)}"`);
    expect(html.match(/checked=""/g)).toHaveLength(1);
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('<p id="audit-name-error"');
    const summary = html.slice(html.indexOf('role="alert"'), html.indexOf("</ul>"));
    expect(summary.indexOf("Name please")).toBeLessThan(summary.indexOf("Pick a goal"));
    expect(summary).toContain('href="#audit-name"');
  });

  it("escapes values, errors and hidden inputs", () => {
    const evil = `"><script>alert(1)</script>`;
    const page = renderForm({
      form: AUDIT_FORM,
      defaults: { name: evil, currentRevenue: evil, currentChallenges: [evil] },
      initialErrors: { name: evil },
      hidden: { _source: evil, _started: "1700000000000" },
    });
    expect(page).not.toContain("<script>");
    expect(page).toContain("&quot;&gt;&lt;script&gt;");
    expect(page).toMatch(/name="_started" value="1700000000000"/);
  });

  it("the no-JS confirmation renders the dialogs' confirmation components", () => {
    // A lead without a reference still renders (tests/unit/confirmation-pages.test.ts has the receipt).
    const received = (lead: ReceivedLead) =>
      renderToStaticMarkup(createElement(Received, { lead, receipt: receiptOf({}) }));
    const unquote = (html: string) => html.replaceAll("&#x27;", "'").replaceAll("&amp;", "&");
    const quote = received({ kind: "quote", estimate: "$900 - $4,500", matches: [] });
    expect(quote).toMatch(/<h1[^>]*>Quote Request Submitted<\/h1>/);
    expect(quote).toContain("$900 - $4,500");
    for (const promise of QUOTE_CONFIRMATION.promises) expect(unquote(quote)).toContain(promise);
    const audit = received({ kind: "assessment" });
    expect(audit).toMatch(/<h1[^>]*>Assessment Request Submitted<\/h1>/);
    for (const step of AUDIT_CONFIRMATION.nextSteps) expect(unquote(audit)).toContain(step);
    const booking = received({ kind: "booking", businessName: "<Trees>", slug: "a-b" });
    expect(booking).toContain("&lt;Trees&gt;");
    expect(booking).toContain('href="/directory/a-b"');
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
});

describe("helpers", () => {
  it("sameSitePath accepts site paths only", () => {
    const req = "https://treeline.example/api/quote";
    expect(sameSitePath("/services/emergency?x=1#y", req)).toBe("/services/emergency");
    expect(sameSitePath("https://treeline.example/blog/a", req)).toBe("/blog/a");
    expect(sameSitePath("https://prod.example/blog/a", req, "https://prod.example")).toBe("/blog/a");
    for (const bad of [
      "https://evil.example/",
      "//evil.example/x",
      "javascript:alert(1)",
      "x",
      "/\\evil",
      "/a\nb",
      "",
    ]) {
      expect(sameSitePath(bad, req), bad).toBeUndefined();
    }
  });

  it("clientIp takes the context, then Netlify's connection header, never X-Forwarded-For, and shares no 'unknown'", () => {
    const req = new Request("http://x/", {
      headers: { "x-nf-client-connection-ip": "2.2.2.2", "x-forwarded-for": "3.3.3.3, 4.4.4.4" },
    });
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
    const limit = (value?: string) => parseEnv({ RATE_LIMIT_PER_MINUTE: value }, () => {}).RATE_LIMIT_PER_MINUTE;
    expect(limit()).toBe(5);
    expect(limit("20")).toBe(20);
    expect(limit("0")).toBe(0);
    expect(limit("-3")).toBe(5);
    expect(limit("lots")).toBe(5);
  });
});
