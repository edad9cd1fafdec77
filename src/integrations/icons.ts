/**
 * The site's icons as CSS: every outline in src/lib/icons.ts becomes a mask image on an
 * `.icon-{name}` class (`virtual:treeline/icons.css`, imported once by BaseLayout), and
 * Icon.astro / Icon.tsx draw an empty `<span class="icon icon-phone">` in the current text
 * color. The outlines travel once, in the cached stylesheet, instead of in every page's
 * HTML: about 0.8 KB (brotli) less per page, which is what lets a business page fit in
 * the first round trip (docs/directory-pages.md).
 *
 * Like Tailwind's preflight for `<svg>`, an icon is a block that does not shrink in a flex
 * row. In forced-colors mode the span keeps its own colors (a forced background would hide
 * it); `currentColor` is then the forced text color, so icons stay visible. Printing
 * keeps them too.
 */
import type { AstroIntegration } from "astro";
import { ICON_PATHS } from "../lib/icons.ts";

const MODULE_ID = "virtual:treeline/icons.css";
const RESOLVED_ID = "\0" + MODULE_ID;

/** An outline as a CSS `url()`: the same SVG the inline icons drew, black on transparent (only its alpha masks). */
function maskUrl(path: string): string {
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'><path d='${path}'/></svg>`;
  return `url("data:image/svg+xml,${svg.replace(/[<>#%"]/g, encodeURIComponent)}")`;
}

/** The stylesheet: the `.icon` box, then one custom property per icon. */
export function iconsCss(paths: Readonly<Record<string, string>> = ICON_PATHS): string {
  const rules = Object.entries(paths).map(([name, path]) => `.icon-${name}{--icon:${maskUrl(path)}}`);
  // In the components layer, so utilities (size-*, hidden, text-*) on an icon win.
  return `@layer components{.icon{display:block;vertical-align:middle;flex-shrink:0;background-color:currentColor;-webkit-mask:var(--icon) center/100% 100% no-repeat;mask:var(--icon) center/100% 100% no-repeat;forced-color-adjust:none;print-color-adjust:exact}${rules.join("")}}`;
}

export default function icons(): AstroIntegration {
  return {
    name: "treeline:icons",
    hooks: {
      "astro:config:setup": ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: "treeline:icons-css",
                resolveId: (id) => (id === MODULE_ID ? RESOLVED_ID : undefined),
                load: (id) => (id === RESOLVED_ID ? iconsCss() : undefined),
              },
            ],
          },
        });
      },
      "astro:config:done": ({ injectTypes }) => {
        injectTypes({ filename: "icons.d.ts", content: `declare module "${MODULE_ID}";` });
      },
    },
  };
}
