import type { AstroIntegration } from "astro";

/**
 * `astro dev` runs the functions (through @netlify/vite-plugin) in fresh workers, like
 * `npm start`; give them the same shared embedded store when no Redis is configured.
 */
export default function sharedStore(): AstroIntegration {
  let rest: { close(): Promise<void> } | undefined;
  return {
    name: "treeline:shared-store",
    hooks: {
      "astro:config:setup": async ({ command }) => {
        if (command !== "dev") return;
        const { shareEmbeddedStore } = await import("../../netlify/lib/store/shared-embedded.ts");
        rest = await shareEmbeddedStore();
      },
      "astro:server:done": async () => {
        await rest?.close();
      },
    },
  };
}
