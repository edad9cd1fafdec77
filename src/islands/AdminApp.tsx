/**
 * The operator's leads inbox at /admin (an Island that starts once the page is idle: this page is an app, not content).
 * Sign-in with the operator token (kept in sessionStorage, sent as a bearer header), then
 * tabs: the leads (with the "N need you" count: new and escalated leads; filters and pinned
 * emergencies in the panel), every
 * message the site sent or kept, reviews, undelivered notifications, the businesses' import and
 * the launch checklist (Setup). Lists are read again
 * when the tab regains focus (the spec's "submissions" list is refreshed by being looked at),
 * and `#lead=ld_...` (the link in a notification) opens that lead.
 */
import { Tabs } from "radix-ui";
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from "react";
import { ApiError } from "../lib/api.ts";
import { ADMIN_DISABLED, isLeadId, needsYouLabel, type AdminChannels, type AdminOutboxReply } from "../lib/admin.ts";
import { needsOperator } from "../lib/lead-status.ts";
import { SITE } from "../lib/site.ts";
import type { Lead } from "../lib/schemas/lead.ts";
import { adminJson, problem, saveToken, savedToken } from "./admin/api.ts";
import { CredentialsPanel } from "./admin/CredentialsPanel.tsx";
import { ChangesPanel } from "./admin/ChangesPanel.tsx";
import { LeadDetail } from "./admin/LeadDetail.tsx";
import { NO_FILTERS, type LeadFilterValues } from "./admin/LeadFilters.tsx";
import type { PanelProps } from "./admin/ListParts.tsx";
import { LeadsPanel } from "./admin/LeadsPanel.tsx";
import { MessagesPanel } from "./admin/MessagesPanel.tsx";
import { OutboxPanel } from "./admin/OutboxPanel.tsx";
import { ReviewsPanel } from "./admin/ReviewsPanel.tsx";
import { ClaimsPanel } from "./admin/ClaimsPanel.tsx";
import { ImportPanel } from "./admin/ImportPanel.tsx";
import { SetupPanel } from "./admin/SetupPanel.tsx";
import { ReportsPanel } from "./admin/ReportsPanel.tsx";
import { StormsPanel } from "./admin/StormsPanel.tsx";
import { StormBoardPanel } from "./admin/StormBoardPanel.tsx";
import { inputClass, labelClass } from "../views/leads/LeadForm.tsx";

type Phase =
  | { kind: "checking" }
  | { kind: "disabled"; message: string }
  | { kind: "signed-out"; error?: string }
  | { kind: "ready"; token: string };
type Tab =
  | "leads"
  | "messages"
  | "reports"
  | "reviews"
  | "claims"
  | "credentials"
  | "outbox"
  | "changes"
  | "storms"
  | "import"
  | "setup"
  | "storm-board";
const TABS: [Tab, string][] = [
  ["leads", "Leads"],
  ["messages", "Messages"],
  ["reports", "Reports"],
  ["reviews", "Reviews"],
  ["claims", "Claims"],
  ["credentials", "Credentials"],
  ["outbox", "Notifications"],
  ["changes", "Changes"],
  ["storms", "Storms"],
  ["import", "Import"],
  ["setup", "Setup"],
  ["storm-board", "Storm board"],
];
/** The page's heading follows the open tab (the page title stays the operator area's). */
const HEADINGS: Record<Tab, string> = {
  leads: "Leads inbox",
  messages: "Messages sent and kept",
  reports: "Bad-lead reports",
  reviews: "Review moderation",
  claims: "Listing claims",
  credentials: "License and insurance checks",
  outbox: "Notifications waiting",
  changes: "Listing changes",
  storms: "Storm mode",
  import: "Import businesses",
  setup: "Launch checklist",
  "storm-board": "Storm board",
};

const LEAD_FROM_HASH = /^#lead=(ld_[0-9a-z]{19})$/;

/** What the server says about a token: ready, disabled, or a sign-in error. */
async function check(token: string): Promise<Phase> {
  try {
    await adminJson(token, "/api/admin/outbox");
    return { kind: "ready", token };
  } catch (error) {
    if (error instanceof ApiError && error.status === 503 && error.json<{ disabled?: boolean }>()?.disabled) {
      return { kind: "disabled", message: error.json<{ error?: string }>()?.error ?? ADMIN_DISABLED };
    }
    if (error instanceof ApiError && error.status === 401)
      return { kind: "signed-out", error: token ? "That token was not accepted." : undefined };
    return { kind: "signed-out", error: problem(error) };
  }
}

function SignIn({ error, onToken }: { error?: string; onToken(token: string): Promise<void> }) {
  const id = useId();
  const [pending, setPending] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const token = String(new FormData(event.currentTarget).get("token") ?? "").trim();
    if (!token) return;
    setPending(true);
    try {
      await onToken(token);
    } finally {
      setPending(false);
    }
  }
  return (
    <form
      onSubmit={submit}
      className="card mx-auto mt-8 grid max-w-md gap-4"
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <h2 className="text-xl font-semibold text-forest-950">Sign in</h2>
      <div>
        <label htmlFor={id} className={labelClass}>
          Operator token
        </label>
        <input
          id={id}
          name="token"
          type="password"
          autoComplete="current-password"
          required
          className={inputClass}
          aria-invalid={error ? true : undefined}
        />
        {error ? (
          <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn-secondary" disabled={pending}>
        {pending ? "Signing in..." : "Sign in"}
      </button>
      <p className="text-xs text-slate-500">
        The token stays in this browser tab only and is forgotten when the tab closes.
      </p>
    </form>
  );
}

export default function AdminApp() {
  const [phase, setPhase] = useState<Phase>({ kind: "checking" });
  const [tab, setTab] = useState<Tab>("leads");
  const [refreshKey, setRefreshKey] = useState(0);
  const [needsYou, setNeedsYou] = useState<number | null>(null);
  const [undelivered, setUndelivered] = useState<number | null>(null);
  const [channels, setChannels] = useState<AdminChannels | null>(null);
  const [filters, setFilters] = useState<LeadFilterValues>(NO_FILTERS);
  const [open, setOpen] = useState<string | null>(null);
  const [updated, setUpdated] = useState<Lead | null>(null);
  const trigger = useRef<HTMLElement | null>(null);

  useEffect(() => {
    void check(savedToken()).then((next) => {
      if (next.kind !== "ready") saveToken(null);
      setPhase(next);
    });
    const fromHash = () => {
      const id = LEAD_FROM_HASH.exec(location.hash)?.[1];
      if (id && isLeadId(id)) setOpen(id);
    };
    fromHash();
    window.addEventListener("hashchange", fromHash);
    return () => window.removeEventListener("hashchange", fromHash);
  }, []);

  // The browser tab and history name the section open, as the heading does.
  useEffect(() => {
    document.title = `${phase.kind === "ready" ? HEADINGS[tab] : "Operator area"} | ${SITE.name}`;
  }, [phase.kind, tab]);

  // Back to this tab: new leads may have arrived while the operator was elsewhere.
  useEffect(() => {
    if (phase.kind !== "ready") return;
    let last = Date.now();
    const again = () => {
      if (document.visibilityState !== "visible" || Date.now() - last < 2_000) return;
      last = Date.now();
      setRefreshKey((k) => k + 1);
    };
    window.addEventListener("focus", again);
    document.addEventListener("visibilitychange", again);
    return () => {
      window.removeEventListener("focus", again);
      document.removeEventListener("visibilitychange", again);
    };
  }, [phase.kind]);

  // The Notifications tab's badge and the providers the Messages tab names, whichever tab is open.
  useEffect(() => {
    if (phase.kind !== "ready") return;
    adminJson<AdminOutboxReply>(phase.token, "/api/admin/outbox").then(
      (body) => {
        setUndelivered(body.total);
        if (body.channels) setChannels(body.channels);
      },
      () => undefined,
    );
  }, [phase, refreshKey]);

  const signIn = async (token: string) => {
    const next = await check(token);
    if (next.kind === "ready") saveToken(token);
    setPhase(next);
  };
  const signOut = useCallback(() => {
    saveToken(null);
    setPhase({ kind: "signed-out" });
  }, []);
  const expired = useCallback(() => {
    saveToken(null);
    setPhase({ kind: "signed-out", error: "Please sign in again." });
  }, []);
  const openLead = useCallback((id: string, from: HTMLElement) => {
    trigger.current = from;
    setOpen(id);
  }, []);
  const onCounts = useCallback((count: number) => setNeedsYou(count), []);
  const onSaved = useCallback((lead: Lead, before: Lead) => {
    setUpdated(lead);
    // The "N need you" count follows an edit without reading the list again.
    const delta = Number(needsOperator(lead.status)) - Number(needsOperator(before.status));
    if (delta !== 0) setNeedsYou((n) => (n === null ? n : Math.max(0, n + delta)));
  }, []);
  const closeLead = () => {
    setOpen(null);
    if (LEAD_FROM_HASH.test(location.hash)) history.replaceState(null, "", location.pathname + location.search);
  };

  if (phase.kind === "checking") {
    return (
      <p className="needs-js container-page py-16 text-slate-600" role="status">
        Loading...
      </p>
    );
  }

  /** Each tab's panel; every panel gets the token, the refresh key and the sign-out. */
  const panel = (tab: Tab, common: PanelProps) => {
    switch (tab) {
      case "leads":
        return (
          <LeadsPanel
            {...common}
            updated={updated}
            filters={filters}
            onFilters={setFilters}
            onOpen={openLead}
            onCounts={onCounts}
          />
        );
      case "messages":
        return <MessagesPanel {...common} channels={channels} onOpen={openLead} />;
      case "reports":
        return <ReportsPanel {...common} onOpen={openLead} />;
      case "reviews":
        return <ReviewsPanel {...common} />;
      case "claims":
        return <ClaimsPanel {...common} />;
      case "credentials":
        return <CredentialsPanel {...common} />;
      case "outbox":
        return <OutboxPanel {...common} onOpen={openLead} onTotal={setUndelivered} />;
      case "changes":
        return <ChangesPanel {...common} />;
      case "storms":
        return <StormsPanel {...common} />;
      case "import":
        return <ImportPanel {...common} />;
      case "setup":
        return <SetupPanel {...common} />;
      case "storm-board":
        return <StormBoardPanel {...common} />;
    }
  };

  return (
    <div className="container-page py-8 sm:py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="eyebrow">Operations</p>
          <h1 className="text-3xl font-bold text-forest-950">
            {phase.kind === "ready" ? HEADINGS[tab] : "Operator area"}
          </h1>
        </div>
        {phase.kind === "ready" ? (
          <div className="flex gap-2">
            <button type="button" className="btn-outline btn-sm" onClick={() => setRefreshKey((k) => k + 1)}>
              Refresh
            </button>
            <button type="button" className="btn-outline btn-sm" onClick={signOut}>
              Sign out
            </button>
          </div>
        ) : null}
      </div>

      {phase.kind === "disabled" ? (
        <p role="alert" className="card mt-8 max-w-xl border-amber-200 bg-amber-50 text-amber-900">
          {phase.message}. The operator area stays off until the site has an ADMIN_TOKEN.
        </p>
      ) : phase.kind === "signed-out" ? (
        <SignIn error={phase.error} onToken={signIn} />
      ) : (
        <Tabs.Root value={tab} onValueChange={(v) => setTab(v as Tab)} className="mt-6">
          <Tabs.List
            aria-label="Inbox sections"
            className="-mx-4 flex gap-1 overflow-x-auto border-b border-slate-200 px-4 sm:mx-0 sm:px-0"
          >
            {TABS.map(([value, label]) => {
              const badge =
                value === "leads"
                  ? needsYou
                    ? needsYouLabel(needsYou)
                    : null
                  : value === "outbox"
                    ? undelivered
                    : null;
              return (
                <Tabs.Trigger
                  key={value}
                  value={value}
                  className="-mb-px inline-flex min-h-11 shrink-0 items-center gap-2 border-b-2 border-transparent px-3 text-sm font-semibold whitespace-nowrap text-slate-600 hover:text-forest-900 data-[state=active]:border-forest-600 data-[state=active]:text-forest-900"
                >
                  {label}
                  {badge ? <span className="badge bg-slate-100 text-slate-700">{badge}</span> : null}
                </Tabs.Trigger>
              );
            })}
          </Tabs.List>
          {TABS.map(([value]) => (
            <Tabs.Content key={value} value={value} className="pt-5 outline-none">
              {panel(value, { token: phase.token, refreshKey, onAuthError: expired })}
            </Tabs.Content>
          ))}
        </Tabs.Root>
      )}

      {phase.kind === "ready" && open ? (
        <LeadDetail
          key={open}
          token={phase.token}
          leadId={open}
          onClose={closeLead}
          returnFocus={() => trigger.current}
          onSaved={onSaved}
          onAuthError={expired}
        />
      ) : null}
    </div>
  );
}
