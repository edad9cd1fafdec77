/**
 * The scheduled storm check (netlify/functions/storm-alerts.mts): reads the National Weather
 * Service's active alerts for each state the directory covers
 * (`GET {NWS_API_URL}/alerts/active?area=FL`, GeoJSON) and stores, for the operator, one
 * suggestion per state and storm-type hazard (a hurricane warning over Florida arrives as
 * dozens of alerts, one per zone and update; the operator wants one line). It never declares
 * a storm: only the operator does, in /admin > Storms.
 *
 * NWS asks every client for a User-Agent naming the application and a contact; ours is the
 * site's name and e-mail (src/lib/site.ts). A state whose request fails or times out is
 * skipped and counted; the run still stores the others. A run starts no request past its
 * budget (run-budget.ts) and gives each no more than what is left.
 */
import { METROS } from "../../src/lib/options.ts";
import { SITE } from "../../src/lib/site.ts";
import type { StormSuggestion } from "../../src/lib/storm.ts";
import { errorName } from "./http-responses.ts";
import { RUN_BUDGET_MS, runDeadline } from "./run-budget.ts";
import type { RunSummary } from "./scheduled-run.ts";
import type { Store } from "./store/index.ts";

/** The states the directory covers (its metros'), each asked for its alerts. */
export const ALERT_STATES: readonly string[] = [...new Set(METROS.map((m) => m.state))];

/** The hazards that bring trees down, as NWS names its events. */
const TREE_HAZARDS =
  /hurricane|tropical storm|typhoon|tornado|severe thunderstorm|high wind|extreme wind|ice storm|winter storm|blizzard|storm surge/i;

/** Only the alerts that warrant a look: a real, current, severe or extreme tree-felling hazard. */
const SEVERE = new Set(["Severe", "Extreme"]);

/** The most one state's request may take, so one slow answer cannot use the whole run. */
const REQUEST_TIMEOUT_MS = 8_000;
/** Suggestions kept this long after their alert ends. */
export const SUGGESTIONS_KEPT_MS = 14 * 86_400_000;

/** "Treeline (hello@treeline.example)": what NWS asks a client to send. */
export const NWS_USER_AGENT = `${SITE.name} storm check (${SITE.email})`;

export interface AlertDeps {
  /** The API's origin (env NWS_API_URL). */
  baseUrl: string;
  fetch?: typeof fetch;
  now?: () => number;
  /** The run's budget (ms); RUN_BUDGET_MS by default. */
  budgetMs?: number;
}

export interface AlertReport {
  /** States asked. */
  states: number;
  /** States whose request failed (or was not made for lack of time). */
  failed: number;
  /** Alerts read, and those that made a suggestion. */
  alerts: number;
  matched: number;
  /** Suggestions stored for the first time. */
  suggested: number;
  /** Old suggestions dropped. */
  pruned: number;
  outOfTime: boolean;
}

/** One alert as the GeoJSON's feature properties carry it (what we read of it). */
interface AlertProperties {
  id?: unknown;
  event?: unknown;
  headline?: unknown;
  areaDesc?: unknown;
  severity?: unknown;
  status?: unknown;
  messageType?: unknown;
  sent?: unknown;
  effective?: unknown;
  onset?: unknown;
  expires?: unknown;
  ends?: unknown;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const iso = (v: unknown): string | undefined => {
  const s = str(v);
  const ms = s ? Date.parse(s) : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
};
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/**
 * One state's answer as suggestions: one per hazard, its id the state, the event and the day
 * it starts (so the same storm's later alerts land on the same suggestion).
 */
export function suggestionsFrom(
  state: string,
  body: unknown,
  now: number,
): { alerts: number; matched: number; suggestions: StormSuggestion[] } {
  const features = (body as { features?: unknown } | null)?.features;
  const list = Array.isArray(features) ? features : [];
  const groups = new Map<string, StormSuggestion>();
  let matched = 0;
  for (const feature of list) {
    const p = ((feature as { properties?: unknown } | null)?.properties ?? {}) as AlertProperties;
    const event = str(p.event);
    const severity = str(p.severity) ?? "Unknown";
    if (!event || !TREE_HAZARDS.test(event) || !SEVERE.has(severity)) continue;
    if (str(p.status) !== "Actual" || str(p.messageType) === "Cancel") continue;
    const startsAt = iso(p.onset) ?? iso(p.effective) ?? iso(p.sent);
    if (!startsAt) continue;
    const endsAt = iso(p.ends) ?? iso(p.expires);
    if (endsAt && Date.parse(endsAt) <= now) continue;
    matched++;
    const id = `nws:${state}:${slug(event)}:${startsAt.slice(0, 10)}`;
    const areaDesc = (str(p.areaDesc) ?? "").slice(0, 2000);
    const before = groups.get(id);
    if (!before) {
      groups.set(id, {
        id,
        event: event.slice(0, 200),
        ...(str(p.headline) ? { headline: str(p.headline)!.slice(0, 500) } : {}),
        areaDesc,
        states: [state],
        severity,
        startsAt,
        ...(endsAt ? { endsAt } : {}),
        seenAt: new Date(now).toISOString(),
        status: "new",
      });
      continue;
    }
    // The group spans its alerts: every area named, the latest end, Extreme over Severe.
    const areas = new Set([...before.areaDesc.split("; "), ...areaDesc.split("; ")].filter(Boolean));
    before.areaDesc = [...areas].join("; ").slice(0, 2000);
    if (endsAt && (!before.endsAt || endsAt > before.endsAt)) before.endsAt = endsAt;
    if (severity === "Extreme") before.severity = severity;
  }
  return { alerts: list.length, matched, suggestions: [...groups.values()] };
}

/** Reads every covered state's alerts and stores what is new for the operator. */
export async function checkAlerts(store: Store, deps: AlertDeps, states = ALERT_STATES): Promise<AlertReport> {
  const now = deps.now ?? Date.now;
  const doFetch = deps.fetch ?? fetch;
  const deadline = runDeadline(now, deps.budgetMs ?? RUN_BUDGET_MS);
  const report: AlertReport = {
    states: states.length,
    failed: 0,
    alerts: 0,
    matched: 0,
    suggested: 0,
    pruned: 0,
    outOfTime: false,
  };
  const found: StormSuggestion[] = [];
  for (const state of states) {
    const left = deadline - now();
    if (left <= 0) {
      report.outOfTime = true;
      report.failed++;
      continue;
    }
    try {
      const res = await doFetch(`${deps.baseUrl}/alerts/active?area=${state}`, {
        headers: { "User-Agent": NWS_USER_AGENT, Accept: "application/geo+json" },
        signal: AbortSignal.timeout(Math.min(REQUEST_TIMEOUT_MS, left)),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const read = suggestionsFrom(state, await res.json(), now());
      report.alerts += read.alerts;
      report.matched += read.matched;
      found.push(...read.suggestions);
    } catch (error) {
      report.failed++;
      console.error(`[storms] NWS alerts for ${state} not read (${errorName(error)})`);
    }
  }
  report.suggested = await store.storms.suggest(found);
  report.pruned = await store.storms.prune(now() - SUGGESTIONS_KEPT_MS);
  return report;
}

/** Why a check failed, as Setup and the Storms tab say it. */
export const nwsNotRead = (r: Pick<AlertReport, "failed" | "states">) =>
  `the National Weather Service's alerts were not read for ${r.failed} of ${r.states} states`;

/** The run's record for /admin > Setup. */
export const alertsSummary = (r: AlertReport): RunSummary => ({
  // A state not read is a check that did not happen: never "ok", or the operator takes no
  // suggestions for no storm.
  outcome: r.outOfTime ? "partial" : r.failed > 0 ? "failed" : "ok",
  ...(r.failed > 0 && !r.outOfTime ? { error: nwsNotRead(r) } : {}),
  counts: {
    states: r.states,
    failed: r.failed,
    alerts: r.alerts,
    matched: r.matched,
    suggested: r.suggested,
    left: r.outOfTime ? r.failed : 0,
  },
});
