/**
 * Posting a lead from a dialog. An Idempotency-Key travels with each request; retries of
 * the same payload (the visitor pressing submit again after a network error) reuse the
 * key so the lead is stored once, while a changed payload is a new attempt with a new key.
 */
import { apiRequest } from "../../lib/api.ts";
import { SOURCE_FIELD, STARTED_FIELD } from "../../lib/forms/render.ts";

export interface LeadMeta {
  /** ms epoch at which the dialog opened (the function drops inhumanly fast submits). */
  started: number;
}

export function createLeadSender() {
  let lastBody = "";
  let key = "";
  return async function send(url: string, payload: Record<string, unknown>, meta: LeadMeta): Promise<void> {
    const body = { ...payload, [STARTED_FIELD]: String(meta.started), [SOURCE_FIELD]: location.pathname };
    const serialized = JSON.stringify(body);
    if (serialized !== lastBody || !key) {
      key = crypto.randomUUID();
      lastBody = serialized;
    }
    await apiRequest("POST", url, body, { headers: { "Idempotency-Key": key } });
  };
}
