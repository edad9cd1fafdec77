/** One credential's status, in the owner's words or the operator's. */
import { DEFAULT_TIME_ZONE } from "../hours.ts";
import type { Insurance, Licence } from "../schemas/credentials.ts";
import { insuranceCurrent } from "./badges.ts";
import { formatCheckedAt, formatCredentialDate } from "./format.ts";

/**
 * One credential's status. The owner's words say whether it is on their public page; the
 * operator's give the check's time and zone (`formatCheckedAt`). Every date is the business's.
 */
export function credentialStatus(
  c: Licence | Insurance,
  today: string,
  timeZone: string = DEFAULT_TIME_ZONE,
  audience: "owner" | "operator" = "owner",
): { state: "waiting" | "checked" | "expired"; text: string } {
  const owner = audience === "owner";
  if ("expiresOn" in c && !insuranceCurrent(c, today)) {
    const text = `Expired on ${formatCredentialDate(c.expiresOn)}`;
    return { state: "expired", text: owner ? `${text}: not on your page` : text };
  }
  if (!c.check)
    return {
      state: "waiting",
      text: owner ? "Not on your page until Treeline checks it" : "Waiting for Treeline's check",
    };
  return {
    state: "checked",
    text: owner
      ? `On your page: checked on ${formatCredentialDate(c.check.checkedAt, timeZone)}`
      : `Checked on ${formatCheckedAt(c.check.checkedAt, timeZone)} (the business's time)`,
  };
}
