/** Claims as stored (netlify/lib/owners/claims.ts) and listed and decided in /admin. */
import { z } from "../zod.ts";
import { cleanString } from "../schemas/text.ts";
import type { ClaimKind, ClaimStatus, OwnerRole } from "./choices.ts";
import type { BusinessHours } from "../schemas/business.ts";
import type { AddBusinessInput } from "./forms.ts";
import { OWNER_MESSAGES } from "./messages.ts";

/**
 * The business an "add" claim proposes: what its owner gave (AddBusinessInput without the
 * submitter's fields), and the city and state its ZIP gave. Proposals made before hours were
 * asked have none of the optional fields.
 */
export type BusinessProposal = Pick<
  AddBusinessInput,
  "businessName" | "address" | "zipCode" | "phone" | "businessEmail" | "website" | "services"
> & {
  /** The ZIP's city, as the ZIP dataset names it ("Boise"). */
  city: string;
  /** The ZIP's state ("ID"). */
  state: string;
  /** The week as the owner gave it ("7:00 AM - 6:00 PM" per open day). */
  businessHours?: BusinessHours;
  /** By appointment only: no set hours. */
  byAppointment?: boolean;
  /** The public holidays the owner said it closes on (none = open on every one). */
  closedHolidays?: string[];
  /** Only when the owner gave it. */
  yearsInBusiness?: number;
};

/** A claim of a listed business, or a business to add. */
export interface Claim {
  /** "cl_" + 20 characters. */
  id: string;
  kind: ClaimKind;
  /** The listed business claimed; for "add", set once approved (the new business). */
  businessId?: string;
  /** The business's name (claimed, or proposed by an "add"), so the admin list needs no second read. */
  businessName?: string;
  /** Its page's slug, once it is listed. */
  businessSlug?: string;
  /** For "add": the business to list. */
  proposal?: BusinessProposal;
  claimant: {
    name: string;
    /** Lower-cased. */
    email: string;
    phone?: string;
    role: OwnerRole;
    note?: string;
  };
  /** How it is proved: the e-mail or phone on file, or the operator's check. */
  proof: "email" | "sms" | "operator";
  status: ClaimStatus;
  /** Why it was refused (required then), or the operator's note on an approval. */
  reason?: string;
  /** ISO. */
  createdAt: string;
  /** ISO: when the operator decided, or the link or code was used. */
  decidedAt?: string;
}

/** GET /api/admin/claims: the operator's queue, or every claim. */
export const AdminClaimsQuery = z.object({
  /** "pending" (default): the queue; "all": every claim, newest first. */
  status: z.enum(["pending", "all"]).default("pending"),
  /** Claims to skip. */
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  /** Claims per page. */
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** PATCH /api/admin/claims/:id: the operator's decision. */
export const ClaimDecision = z
  .object({
    /**
     * Approve (the claimant becomes an owner; an added business is listed), refuse, or revoke
     * a claim that made someone an owner (they stop being one; their sessions end at once).
     */
    decision: z.enum(["approve", "refuse", "revoke"], { error: "Choose approve, refuse or revoke" }),
    /** Why: required to refuse (the claimant reads it) and to revoke (kept), optional to approve. */
    reason: cleanString().trim().max(500, OWNER_MESSAGES.tooLong).optional(),
  })
  .superRefine((d, ctx) => {
    if (d.decision === "approve" || (d.reason ?? "").length > 0) return;
    const message = d.decision === "refuse" ? OWNER_MESSAGES.reasonRequired : OWNER_MESSAGES.revokeReasonRequired;
    ctx.addIssue({ code: "custom", message, path: ["reason"] });
  });
export type ClaimDecision = z.infer<typeof ClaimDecision>;

export interface AdminClaimsReply {
  data: Claim[];
  total: number;
  /** The queue's length, for the tab's badge. */
  pending: number;
}

/**
 * What became of the e-mail an approval (sign-in link) or a refusal (the reason) sends: "sent"
 * (a provider took it), "kept" (no e-mail provider is set up: it is only kept in /admin
 * Messages, for the operator to pass on), "retrying" (not sent yet: the notifier tries again),
 * "failed" (the provider refused it for good).
 */
export type ClaimMail = "sent" | "kept" | "retrying" | "failed";

export interface AdminClaimReply {
  data: Claim;
  /** The business it is about (an approved "add": the one just listed). */
  business?: { id: string; slug: string; name: string };
  /** An approval's or a refusal's e-mail to the claimant (none for a revocation). */
  mail?: ClaimMail;
}
