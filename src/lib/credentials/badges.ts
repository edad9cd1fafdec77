/**
 * What the public may see of a business's credentials. A badge is shown only for what the
 * operator has checked, and an insurance badge goes by itself the day after its expiry (no
 * write needed).
 */
import { DEFAULT_TIME_ZONE } from "../hours.ts";
import type { Credentials, Insurance } from "../schemas/credentials.ts";
import { formatCredentialDate, formatUsd } from "./format.ts";
import { licenceLine } from "./state-rules.ts";

export interface CredentialBadges {
  /** e.g. "License MD LTE #1234, checked by Treeline on Nov 28, 2026". */
  licence?: string;
  /** e.g. "Insured: $1,000,000 general liability (Acme Mutual), checked by Treeline on Nov 28, 2026". */
  insurance?: string;
}

/** An insurance policy still covers `today` (its last day included). */
export const insuranceCurrent = (i: Pick<Insurance, "expiresOn">, today: string) => i.expiresOn >= today;

/**
 * The public badges: a license only once the operator has checked it; insurance only once
 * checked and while `today` (the business's date, `todayIn`) is not past its expiry.
 */
export function badgesOf(
  credentials: Credentials | undefined,
  today: string,
  timeZone: string = DEFAULT_TIME_ZONE,
): CredentialBadges {
  const out: CredentialBadges = {};
  const l = credentials?.licence;
  if (l?.check)
    out.licence = `License ${licenceLine(l)}, checked by Treeline on ${formatCredentialDate(l.check.checkedAt, timeZone)}`;
  const i = credentials?.insurance;
  if (i?.check && insuranceCurrent(i, today)) {
    out.insurance = `Insured: ${formatUsd(i.coverUsd)} general liability (${i.carrier}), checked by Treeline on ${formatCredentialDate(i.check.checkedAt, timeZone)}`;
  }
  return out;
}

/**
 * What a public API answer carries: only checked credentials, without the operator's note
 * (an unchecked statement is no public claim). The business page draws its badges from the
 * full record with `badgesOf`; the JSON answers go through this.
 */
export function withPublicCredentials<T extends { credentials?: Credentials }>(business: T): T {
  if (!business.credentials) return business;
  const { credentials, ...rest } = business;
  const { licence, insurance } = credentials;
  const shown: Credentials = {
    ...(licence?.check ? { licence: { ...licence, check: { checkedAt: licence.check.checkedAt } } } : {}),
    ...(insurance?.check ? { insurance: { ...insurance, check: { checkedAt: insurance.check.checkedAt } } } : {}),
  };
  return (shown.licence || shown.insurance ? { ...rest, credentials: shown } : rest) as T;
}
