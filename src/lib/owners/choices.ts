/** The owners' choices and states: roles, proofs, claim statuses and kinds, and the claim id. */

export const OWNER_ROLES = [
  { value: "owner", label: "Owner" },
  { value: "manager", label: "Manager" },
  { value: "employee", label: "Employee" },
  { value: "other", label: "Someone else (say who in the note)" },
] as const;
export type OwnerRole = (typeof OWNER_ROLES)[number]["value"];

/** How a claimant proves the business is theirs. */
export const CLAIM_PROOFS = [
  { value: "email", label: "Send a sign-in link to the business's e-mail on file" },
  { value: "sms", label: "Text a code to the business's phone on file" },
  { value: "operator", label: "Another address: send my claim to Treeline to check" },
] as const;

export const CLAIM_STATUSES = ["pending", "sent", "proved", "approved", "refused", "revoked"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
/** For /admin: what each status means. */
export const CLAIM_STATUS_LABELS: Record<ClaimStatus, string> = {
  pending: "Waiting for you",
  sent: "Link or code sent to the contact on file",
  proved: "Proved by the contact on file",
  approved: "Approved",
  refused: "Refused",
  revoked: "Owner removed",
};

export const CLAIM_KIND_LABELS = { claim: "Claim", add: "New business" } as const;
export type ClaimKind = keyof typeof CLAIM_KIND_LABELS;

/** Claim ids: "cl_" and 20 base32 characters; also a Message's leadId (schemas/message.ts). */
export const CLAIM_ID = /^cl_[a-z0-9]{20}$/;
export const isClaimId = (id: string) => CLAIM_ID.test(id);
