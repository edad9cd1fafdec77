/**
 * Registers the `client:chat` hydration directive (see chat-directive.client.ts): the
 * chat island hydrates on the first touch of its launcher or when its panel opens, or at
 * once when this tab has a conversation in progress. Astro bundles the entrypoint with esbuild and inlines it into
 * the pages that use it (all of them: the widget is in the base layout).
 */
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";

export default function chatDirective(): AstroIntegration {
  return {
    name: "treeline:chat-directive",
    hooks: {
      "astro:config:setup": ({ addClientDirective }) => {
        addClientDirective({
          name: "chat",
          // A plain path: the entrypoint is spliced into an esbuild import, which does not take file: URLs.
          entrypoint: fileURLToPath(new URL("./chat-directive.client.ts", import.meta.url)),
        });
      },
    },
  };
}

declare module "astro" {
  interface AstroClientDirectives {
    /** Hydrate on the first intent toward the chat launcher or its panel opening (or at once to restore a conversation). Inside a `popover` only. */
    "client:chat"?: boolean;
  }
}
