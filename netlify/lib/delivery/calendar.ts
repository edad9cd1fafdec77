/**
 * Accepted jobs in calendars (docs/lead-delivery.md, "Calendars"):
 *   GET /calendar/{businessId}.{feedKey}.{sig}.ics    a business's private feed: every job it
 *       holds (accepted, not given back) among its newest FEED_LEADS offers, with its window;
 *       the owner page shows the URL and draws a new feed key (retiring the old URL).
 *   GET /requests/{leadId}/{sig}/calendar.ics         the homeowner's accepted window(s), from
 *       the status page, as a file to add to their calendar.
 * Both are iCalendar (ical.ts) in the job's time zone (job-window.ts); a job whose window
 * names no day is left out (its words stay on the pages). Private: never cached or indexed.
 */
import { randomBytes } from "node:crypto";
import { summarizeLead } from "../../../src/lib/lead-summary.ts";
import type { Delivery, Lead } from "../../../src/lib/schemas/lead.ts";
import { BASE_HEADERS, HttpError, endpoint, storeCall, type Endpoint, type EndpointDeps, type Env } from "../http.ts";
import type { Store } from "../store/index.ts";
import type { OfferedLead } from "../store/repos/business-leads.ts";
import { ICS_CONTENT_TYPE, icsCalendar, type CalendarEvent } from "./ical.ts";
import { jobWindow } from "./job-window.ts";
import { signerFor } from "./signing.ts";

export const CALENDAR_ROUTE = "/calendar/:token";
export const VISIT_CALENDAR_ROUTE = "/requests/:leadId/:sig/calendar.ics";
/** The newest offers a feed reads: a busy business's recent and coming jobs, never its whole history. */
export const FEED_LEADS = 200;

export const CALENDAR_NOT_FOUND = "This calendar link isn't valid. The owner page has the current one.";
export const NO_WINDOW = "No accepted job on this request names a day to put in a calendar yet.";
const STATUS_LINK_INVALID = "This link isn't valid.";

const FEED_TOKEN = /^[A-Za-z0-9._-]{20,200}$/;
const STATUS_PARAM = /^[A-Za-z0-9_-]{1,40}$/;

/** A fresh feed key: 144 random bits. */
export const newFeedKey = () => randomBytes(18).toString("base64url");

/** The business's feed URL (absolute: calendar apps fetch it from elsewhere), drawing its key on first use. */
export async function feedUrl(store: Store, env: Env, businessId: string): Promise<string> {
  const [key, signer] = await Promise.all([
    store.calendarFeeds.ensure(businessId, newFeedKey()),
    signerFor(store, env),
  ]);
  return `${env.siteUrl}${signer.calendarPath(businessId, key)}`;
}

/** Draws a new feed key for the business: the URL handed out before stops working. Returns the new URL. */
export async function renewFeed(store: Store, env: Env, businessId: string): Promise<string> {
  const [key, signer] = await Promise.all([
    store.calendarFeeds.replace(businessId, newFeedKey()),
    signerFor(store, env),
  ]);
  return `${env.siteUrl}${signer.calendarPath(businessId, key)}`;
}

const host = (env: Env) => new URL(env.siteUrl).host;

/** "Window: Sat 8-10 AM" and "Price: $650", as the pro gave them. */
const termLines = (d: Delivery) => [
  ...(d.window ? [`Window: ${d.window}`] : []),
  ...(d.price ? [`Price: ${d.price}`] : []),
];

/** One job the business holds, as its feed shows it: the customer's details come with the acceptance. */
export function businessEvent(lead: Lead, delivery: Delivery, env: Env): CalendarEvent | null {
  const window = jobWindow(lead, delivery);
  if (!window) return null;
  const s = summarizeLead(lead);
  const description = [
    `${s.what}, ${s.name}${lead.reference ? ` (${lead.reference})` : ""}`,
    ...termLines(delivery),
    ...(s.phone ? [`Phone: ${s.phone}`] : []),
    ...(s.email ? [`E-mail: ${s.email}`] : []),
  ].join("\n");
  return {
    uid: `job-${lead.id}-${delivery.businessId}@${host(env)}`,
    window,
    summary: `${s.name}: ${s.what}`,
    description,
    ...(s.place ? { location: s.place } : {}),
  };
}

/** The jobs a business holds among its offers, as events (newest offer first, as read). */
export function businessEvents(items: readonly OfferedLead[], env: Env): CalendarEvent[] {
  return items.flatMap(({ lead, delivery }) => businessEvent(lead, delivery, env) ?? []);
}

/** The homeowner's accepted window(s): one event per pro holding the job whose window names a day. */
export function visitEvents(lead: Lead, statusUrl: string, env: Env): CalendarEvent[] {
  const s = summarizeLead(lead);
  return (lead.routing?.deliveries ?? []).flatMap((d) => {
    const window = jobWindow(lead, d);
    if (!window) return [];
    return [
      {
        uid: `visit-${lead.id}-${d.businessId}@${host(env)}`,
        window,
        summary: `Tree service: ${d.name}`,
        description: [
          `${d.name} accepted your request${lead.reference ? ` ${lead.reference}` : ""} (${s.what}).`,
          ...termLines(d),
          ...(d.phone ? [`Their phone: ${d.phone}`] : []),
          `Your request: ${statusUrl}`,
        ].join("\n"),
        ...(s.place ? { location: s.place } : {}),
        url: statusUrl,
      },
    ];
  });
}

/** Private calendar text: never stored by a cache, never indexed, sent nowhere else. */
function icsResponse(text: string, req: Request, filename: string, download: boolean): Response {
  return new Response(req.method === "HEAD" ? null : text, {
    headers: {
      ...BASE_HEADERS,
      "content-type": ICS_CONTENT_TYPE,
      "content-disposition": `${download ? "attachment" : "inline"}; filename="${filename}"`,
      "cache-control": "private, no-store",
      "x-robots-tag": "noindex",
      "referrer-policy": "no-referrer",
    },
  });
}

/** GET /calendar/:token: the business's feed, while its feed key is the current one. */
export function calendarFeedHandler(deps: EndpointDeps = {}): Endpoint {
  return endpoint(
    {
      log: "[calendar] feed",
      methods: ["GET", "HEAD"],
      route: { path: CALENDAR_ROUTE, valid: (v) => FEED_TOKEN.test(v), notFound: CALENDAR_NOT_FOUND },
    },
    deps,
    async ({ req, store, env, now, params }) => {
      const signer = await storeCall(() => signerFor(store, env), { step: "link key" });
      const grant = signer.readCalendar(params.token);
      if (!grant) throw new HttpError(404, CALENDAR_NOT_FOUND);
      const [current, business] = await storeCall(
        () => Promise.all([store.calendarFeeds.current(grant.businessId), store.businesses.get(grant.businessId)]),
        { step: "read" },
      );
      // A key the business replaced (or a business gone) opens nothing.
      if (current !== grant.feedKey || !business) throw new HttpError(404, CALENDAR_NOT_FOUND);
      const { items } = await storeCall(() => store.businessLeads.page(grant.businessId, 0, FEED_LEADS), {
        step: "leads",
      });
      const text = icsCalendar({
        name: `${business.name}: jobs from Treeline`,
        events: businessEvents(items, env),
        now: now(),
      });
      return icsResponse(text, req, "treeline-jobs.ics", false);
    },
  );
}

/** GET /requests/:leadId/:sig/calendar.ics: the homeowner's accepted window(s) as a file. */
export function visitCalendarHandler(deps: EndpointDeps = {}): Endpoint {
  return endpoint(
    {
      log: "[calendar] visit",
      methods: ["GET", "HEAD"],
      route: { path: VISIT_CALENDAR_ROUTE, valid: (v) => STATUS_PARAM.test(v), notFound: STATUS_LINK_INVALID },
    },
    deps,
    async ({ req, store, env, now, params }) => {
      const signer = await storeCall(() => signerFor(store, env), { step: "link key" });
      if (!signer.checkStatus(params.leadId, params.sig)) throw new HttpError(404, STATUS_LINK_INVALID);
      const lead = await storeCall(() => store.leads.get(params.leadId), { step: "read" });
      if (!lead) throw new HttpError(404, STATUS_LINK_INVALID);
      const statusUrl = `${env.siteUrl}${signer.statusPath(lead.id)}`;
      const events = visitEvents(lead, statusUrl, env);
      if (events.length === 0) throw new HttpError(404, NO_WINDOW);
      const text = icsCalendar({
        name: `Your tree job${lead.reference ? ` ${lead.reference}` : ""}`,
        events,
        now: now(),
      });
      return icsResponse(text, req, `treeline-${lead.reference ?? "job"}.ics`, true);
    },
  );
}
