/** The operator's log of every message the site sent or kept. */
import { AdminMessagesQuery, type AdminMessagesReply } from "../../../src/lib/admin.ts";
import type { Message } from "../../../src/lib/schemas/message.ts";
import { endpoint, jsonResponse, storeCall } from "../http.ts";
import { keepsSecrets, withoutSignInSecrets } from "../messages/owner.ts";
import { adminSpec, readQuery, type AdminDeps, type AdminHandler } from "./endpoint.ts";

/**
 * A message as the operator reads it: one that went (or never can) without its sign-in link or
 * code, even if it was logged before the log dropped them.
 */
export const shownMessage = (m: Message): Message => (keepsSecrets(m) ? m : withoutSignInSecrets(m));

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
      reply = { data: all.slice(offset, offset + limit).map(shownMessage), total: all.length };
    } else {
      const { items, total } = await storeCall(() => store.messages.list({ offset, limit }));
      reply = { data: items.map(shownMessage), total };
    }
    return jsonResponse(reply);
  });
}
