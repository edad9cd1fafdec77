// @vitest-environment happy-dom
/**
 * The link from the directory's empty search into /find-a-tree-service's quote form
 * (src/lib/find-pros-link.ts): its URL, and the page script's prefill of both forms, which
 * never overwrites what is already in a field.
 */
import { renderToString } from "react-dom/server";
import { beforeEach, describe, expect, it } from "vitest";
import FindProsForm from "../../../src/islands/FindProsForm.tsx";
import { findProsUrl, prefillFindPros, readFindProsPrefill } from "../../../src/lib/find-pros-link.ts";
import { PRO_SERVICES } from "../../../src/lib/options.ts";

const HERO = `<form id="pro-search"><input name="near" /><select name="service"><option value="">All services</option>${PRO_SERVICES.map((s) => `<option value="${s.value}">${s.label}</option>`).join("")}</select></form>`;

beforeEach(() => {
  document.body.innerHTML = HERO + renderToString(<FindProsForm source="/find-a-tree-service" />);
});

const value = (selector: string) => (document.querySelector(selector) as HTMLInputElement | HTMLSelectElement).value;

describe("find-pros link", () => {
  it("carries the place and a known service to the form's anchor", () => {
    expect(findProsUrl({ location: " Katy,  TX ", service: "stump grinding" })).toBe(
      "/find-a-tree-service?location=Katy%2C+TX&service=Stump+Grinding#get-quotes",
    );
    expect(findProsUrl({ location: "", service: "nonsense" })).toBe("/find-a-tree-service#get-quotes");
    expect(readFindProsPrefill("?near=78664&serviceType=Tree+Removal")).toEqual({
      location: "78664",
      service: "Tree Removal",
    });
  });

  it("fills the quote form's Location and Service Type and the hero's search", () => {
    prefillFindPros(document, "?location=33101&service=Tree+Removal");
    expect(value('#find-pros-form [name="location"]')).toBe("33101");
    expect(value('#find-pros-form [name="serviceType"]')).toBe("Tree Removal");
    expect(value('#pro-search [name="near"]')).toBe("33101");
    expect(value('#pro-search [name="service"]')).toBe("Tree Removal");
  });

  it("keeps what is already filled in, and ignores an unknown service", () => {
    (document.querySelector('#find-pros-form [name="location"]') as HTMLInputElement).value = "Austin";
    prefillFindPros(document, "?location=33101&service=Gardening");
    expect(value('#find-pros-form [name="location"]')).toBe("Austin");
    expect(value('#find-pros-form [name="serviceType"]')).toBe("");
    expect(value('#pro-search [name="near"]')).toBe("33101");
  });
});
