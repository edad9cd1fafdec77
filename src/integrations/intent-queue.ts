/**
 * The hand-over between the `client:intent` directive (inline on every page) and the
 * dialogs island (downloaded on first intent). The directive records what the visitor
 * asked for before React exists; the island drains that queue on mount and, from then
 * on, receives requests directly through `open`.
 */

/** A trigger's data-* attributes as read from `element.dataset` (dialog, serviceType, urgency, phase). */
export type DialogRequest = Partial<Record<string, string>> & { dialog?: string };

export interface IntentState {
  /** Requests made before the island mounted, oldest first. */
  q: DialogRequest[];
  /** Set by the island once mounted; the directive then stops intercepting clicks. */
  open?: (request: DialogRequest) => void;
}

/** Global slot shared by the directive and the island (a window property: they are separate bundles). */
export const INTENT_KEY = "__treelineDialogs";

/** Dialog names a fragment (`/#quote`) can ask for. */
export const DIALOG_HASHES = ["quote", "audit", "assessment"];

/** The shared state, created by whichever side runs first. */
export function intentState(): IntentState {
  const w = window as unknown as Record<string, IntentState | undefined>;
  return (w[INTENT_KEY] ??= { q: [] });
}
