/**
 * What the store keeps about a listing's owners: who they are, their sessions, what a sign-in
 * link or code grants, and the history of their changes. Shared by the store's repositories
 * (netlify/lib/store/repos) and the owner pages that use them.
 */
import type { Business } from "./schemas/business.ts";

/** How an owner proved the business is theirs. */
export type OwnerVia = "email" | "sms" | "operator";

export interface Owner {
  /** Lower-cased e-mail: the owner's identity. */
  email: string;
  via: OwnerVia;
  /** When they became an owner (ISO). */
  since: string;
}

/** An owner's e-mail as the store keys it. */
export const normalEmail = (email: string) => email.trim().toLowerCase();

export interface OwnerSession {
  id: string;
  businessId: string;
  email: string;
  /** ISO. */
  createdAt: string;
  /** ms. */
  expiresAt: number;
}

/** What a link or code lets its holder do: become (or stay) an owner of one business and sign in. */
export interface SignInGrant {
  businessId: string;
  /** The owner's e-mail (lower-cased). */
  email: string;
  via: OwnerVia;
  /** The claim it answers (also the message log's id for it). */
  claimId: string;
  /** ms; checked as well as the key's TTL, so a clock a test drives is honored. */
  expiresAt: number;
  /**
   * Signs in only someone who is still an owner (a link to an owner's own address, or after the
   * operator's approval): removing them in the meantime makes the link worthless.
   */
  ownerOnly?: boolean;
}

export function isSignInGrant(value: unknown): value is SignInGrant {
  const g = value as Partial<SignInGrant> | null;
  return (
    !!g &&
    typeof g.businessId === "string" &&
    typeof g.email === "string" &&
    typeof g.claimId === "string" &&
    typeof g.expiresAt === "number" &&
    (g.via === "email" || g.via === "sms" || g.via === "operator")
  );
}

/** The fields an owner may change (everything else is the operator's, or derived). */
export const OWNER_FIELDS = [
  "description",
  "services",
  "serviceAreas",
  "businessHours",
  "closedHolidays",
  "closedDates",
  "byAppointment",
  "images",
  "website",
  "phone",
  "credentials",
  // The operator's old free text: the owner's credentials form clears it when a structured
  // license or insurance replaces it, so the clearing is in the history and can be rolled back.
  "licenseNumber",
  "insuranceDetails",
] as const satisfies readonly (keyof Business)[];
export type OwnerField = (typeof OWNER_FIELDS)[number];
export type ListingPatch = { [K in OwnerField]?: Business[K] | null };

/** Who made a change: an owner (by e-mail) or the operator. */
export type ChangeActor = { kind: "owner"; email: string } | { kind: "operator" };

export interface ListingChange {
  id: string;
  businessId: string;
  /** ISO. */
  at: string;
  actor: ChangeActor;
  /** One line for the history, e.g. "Hours and holiday closures". */
  summary: string;
  /** The changed fields as they were (null = absent). */
  before: ListingPatch;
  /** The changed fields as they are now (null = absent). */
  after: ListingPatch;
  /** The change this one undid (a rollback). */
  revertOf?: string;
}
