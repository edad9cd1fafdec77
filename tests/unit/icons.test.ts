import { describe, expect, it } from "vitest";
import { iconsCss } from "../../src/integrations/icons";
import { ICON_PATHS } from "../../src/lib/icons";

/** The SVG inside one icon's data: URL, decoded. */
function svgOf(css: string, name: string): string {
  const match = new RegExp(`\\.icon-${name}\\{--icon:url\\("data:image/svg\\+xml,([^"]*)"\\)\\}`).exec(css);
  if (!match) throw new Error(`no .icon-${name}`);
  return decodeURIComponent(match[1]);
}

describe("iconsCss", () => {
  const css = iconsCss();

  it("has one class per outline, drawing exactly that outline", () => {
    for (const [name, path] of Object.entries(ICON_PATHS)) {
      const svg = svgOf(css, name);
      expect(svg).toContain(`<path d='${path}'/>`);
      expect(svg).toContain("viewBox='0 0 24 24'");
    }
    expect(css.match(/\.icon-[a-zA-Z]+\{/g)).toHaveLength(Object.keys(ICON_PATHS).length);
  });

  it("keeps characters that end a data: URL or a CSS string out of it", () => {
    const urls = css.match(/data:image\/svg\+xml,[^"]*/g) ?? [];
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).not.toMatch(/[<>#"]/);
    expect(svgOf(iconsCss({ odd: 'M0 0"#<>%' }), "odd")).toContain(`d='M0 0"#<>%'`);
  });

  it("sits in the components layer, so utilities on an icon win", () => {
    expect(css.startsWith("@layer components{.icon{")).toBe(true);
    expect(css).toMatch(/\.icon\{[^}]*background-color:currentColor[^}]*mask:var\(--icon\)/);
  });
});
