/**
 * POST /owner/calendar: the signed-in owner draws a new calendar feed URL for their business
 * (the jobs it accepted: delivery/calendar.ts); the old URL stops working at once, so a link
 * shared by mistake is retired in one tap. Back to /owner (303) with a notice.
 */
import { KB, storeCall, type Endpoint, type EndpointDeps } from "../http.ts";
import { renewFeed } from "../delivery/calendar.ts";
import { OWNER_PATH } from "./session.ts";
import { ownerEndpoint, seeOwnerPage } from "./page.ts";

export const OWNER_CALENDAR_PATH = "/owner/calendar";

export const CALENDAR_RENEWED =
  "Your calendar has a new link, below. The old link no longer works: add the new one to your calendar app.";

export function ownerCalendarHandler(deps: EndpointDeps = {}): Endpoint {
  return ownerEndpoint(
    {
      log: "[owner] calendar",
      body: { urlencoded: 1 * KB },
      rateLimit: { name: "owner-calendar", perMinute: () => 10 },
    },
    deps,
    async ({ store, env }, { business }) => {
      await storeCall(() => renewFeed(store, env, business.id), { step: "calendar" });
      console.info(`[owner] calendar ${business.id}: new feed link`);
      return seeOwnerPage(store, OWNER_PATH, CALENDAR_RENEWED);
    },
  );
}
