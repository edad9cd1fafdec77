/** The operator's log of every message the site sent or kept. */
import { AdminMessagesQuery, type AdminMessagesReply } from "../../../src/lib/admin.ts";
import { endpoint, jsonResponse, storeCall } from "../http.ts";
import { adminSpec, readQuery, type AdminDeps, type AdminHandler } from "./endpoint.ts";

/**
 * GET /api/admin/messages?offset=&limit=&leadId= -> AdminMessagesReply: every message the site
 * sent or kept, newest first; with leadId, that lead's, oldest first (a conversation).
 */
export function adminMessagesHandler(deps: AdminDeps = {}): AdminHandler {
  return endpoint(adminSpec("messages", ["GET"]), deps, async ({ req, store }) => {
    const { offset, limit, leadId } = readQuery(AdminMessagesQuery, req);
    let reply: AdminMessagesReply;
    if (leadId) {
      const all = await storeCall(() => store.messages.forLead(leadId));
      reply = { data: all.slice(offset, offset + limit), total: all.length };
    } else {
      const { items, total } = await storeCall(() => store.messages.list({ offset, limit }));
      reply = { data: items, total };
    }
    return jsonResponse(reply);
  });
}
