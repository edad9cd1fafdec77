/**
 * Every React island of the site, by name: what `<Island name="…">` renders on the server
 * and what the hydration entry loads in the browser, one code-split chunk each, so the
 * chat's code arrives only with the chat and a dialog's only with a dialog. When each starts
 * is the loader's business (src/scripts/islands.ts): inside a `<dialog>` or `[popover]` on
 * intent, with `when="visible"` as it nears the viewport, with `when="intent"` when the
 * visitor reaches into it, otherwise once the page is idle.
 */
import type { ComponentProps } from "react";
import type { PropsTransport } from "../lib/islands.ts";

export const ISLANDS = {
  AdminApp: () => import("./AdminApp.tsx"),
  ChatWidget: () => import("./ChatWidget.tsx"),
  DirectoryList: () => import("./DirectoryList.tsx"),
  FindProsForm: () => import("./FindProsForm.tsx"),
  LeadDialogs: () => import("./LeadDialogs.tsx"),
};

export type IslandName = keyof typeof ISLANDS;

/** The props of the named island's component. */
export type IslandProps<N extends IslandName> = ComponentProps<Awaited<ReturnType<(typeof ISLANDS)[N]>>["default"]>;

/** An island module's PropsTransport, for a module that exports one as `transport`. */
export function transportOf(
  module: object,
): PropsTransport<Record<string, unknown>, Record<string, unknown>> | undefined {
  return "transport" in module
    ? (module.transport as PropsTransport<Record<string, unknown>, Record<string, unknown>>)
    : undefined;
}
