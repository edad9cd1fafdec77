/**
 * The launch checklist (/admin > Setup, GET /api/admin/setup; the server logs the same lines at
 * start): what the reply holds and how the island names each state. Computed by
 * netlify/lib/admin/setup.ts.
 */

/** ready: nothing to do; warning: works, but look at it; not-ready: fix it before launch. */
export const SETUP_STATES = ["ready", "warning", "not-ready"] as const;
export type SetupState = (typeof SETUP_STATES)[number];

export const SETUP_STATE_LABELS: Record<SetupState, string> = {
  ready: "Ready",
  warning: "Warning",
  "not-ready": "Not ready",
};

/** One fact under a line: a value, or a time (ISO) the island shows on the operator's clock. */
export interface SetupFact {
  label: string;
  value?: string;
  at?: string;
}

/** One line of the checklist. */
export interface SetupLine {
  /** "store", "email", "sms", "claude", "link-secret", "schedule:<function>", "data". */
  id: string;
  /** "Store", "E-mail", "SMS", "Claude", "Link-signing secret", "Schedule: lead-clock", "Data". */
  label: string;
  state: SetupState;
  /** One sentence: what is set up, and what to do about it. */
  text: string;
  facts: SetupFact[];
}

/** GET /api/admin/setup. */
export interface AdminSetupReply {
  /** When it was checked (ISO). */
  checkedAt: string;
  lines: SetupLine[];
}
