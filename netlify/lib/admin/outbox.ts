/** The operator's view of the notification outbox, and "retry now". */
import { z } from "../../../src/lib/zod.ts";
import { isLeadId, type AdminChannels } from "../../../src/lib/admin.ts";
import { afterResponse, endpoint, errorName, jsonResponse, storeCall } from "../http.ts";
import { channelsOf, drainOutbox, notifyConfig, setupOf, type NotifyConfig } from "../notify/index.ts";
import { adminSpec, readPatch, type AdminDeps, type AdminHandler } from "./endpoint.ts";

const RetryBody = z.object({
  /** One lead's notification; absent for every waiting one. */
  leadId: z.string().refine(isLeadId, "Invalid lead id").optional(),
});

/** Which providers the configuration sets up; without one, its messages are only kept for /admin. */
export const adminChannels = (config: NotifyConfig): AdminChannels => ({
  webhook: config.webhookUrl !== undefined,
  email: config.email !== undefined,
  // Resend's test sender reaches only the account's owner: visitors' and businesses' mail is kept.
  visitorEmail: setupOf(config).emailReady,
  sms: config.sms !== undefined,
});

/** GET /api/admin/outbox -> AdminOutboxReply; POST { leadId? } retries now -> { retried, channels }. */
export function adminOutboxHandler(deps: AdminDeps = {}): AdminHandler {
  return endpoint(adminSpec("outbox", ["GET", "POST"]), deps, async ({ req, store, context, env, now, body }) => {
    const config = notifyConfig(env);
    const channels = adminChannels(config);
    if (req.method === "GET") {
      const { items, total } = await storeCall(() => store.outbox.list({ limit: 100 }));
      return jsonResponse({ data: items, total, channels });
    }
    const { leadId } = readPatch(RetryBody, body);
    const retried = await storeCall(() => store.outbox.retryNow(leadId ? [leadId] : undefined, now()));
    if (retried > 0 && channelsOf(config).length > 0) {
      const run = drainOutbox(store, { env, ...deps.notify }).catch((error) =>
        console.error(`[admin] outbox retry failed (${errorName(error)})`),
      );
      await afterResponse(context, run);
    }
    console.info(`[admin] outbox: retry now for ${retried} item(s)`);
    return jsonResponse({ retried, channels });
  });
}
