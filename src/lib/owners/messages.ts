/** Every message of the owners' claim, add-a-business and sign-in flows, and /admin's Claims tab. */
import { MESSAGES } from "../schemas/forms.ts";
import { CODE_DIGITS } from "./limits.ts";

export const OWNER_MESSAGES = {
  name: "Please enter your name",
  email: MESSAGES.email,
  phone: MESSAGES.phone,
  role: "Please choose your role",
  proof: "Please choose how to prove the business is yours",
  note: "The note can be at most 1000 characters",
  businessName: "Please enter the business's name",
  address: "Please enter the street address",
  zipCode: "Please enter a 5-digit ZIP code",
  zipUnknown: "We couldn't find that ZIP code: please check it (a US ZIP, e.g. 83702)",
  schedule: "Please choose set hours or by appointment",
  hoursMissing: "Please give the hours of at least one day, or choose By appointment only",
  holidays: "Please choose holidays from the list",
  yearsInBusiness: "Years in business is a whole number from 0 to 200 (or leave it blank)",
  website: "Please enter a full web address (https://...)",
  services: "Please choose at least one service",
  tooLong: MESSAGES.tooLong,
  code: `Please enter the ${CODE_DIGITS}-digit code`,
  signInAddress: "Please enter your e-mail, or the business's phone number on file",
  /** No phone or e-mail on file for the proof chosen. */
  nothingOnFile: "This business has no e-mail or phone on file for that; choose another way.",
  linkInvalid: "This sign-in link isn't valid or was already used. Ask for a new one.",
  linkExpired: "This sign-in link has expired. Ask for a new one.",
  codeGone: "This code has expired or was tried too many times. Ask for a new one.",
  lockedOut: "Too many failed sign-ins from your connection. Please wait 15 minutes and try again.",
  signedOut: "You're signed out.",
  reasonRequired: "Please give the reason for refusing",
  claimNotFound: "Claim not found",
  claimDecided: "This claim has already been decided",
  revokeReasonRequired: "Please give the reason for removing this owner",
  notAnOwnersClaim: "Only a claim that made someone an owner (proved or approved) can be revoked",
} as const;

/** "Wrong code. 3 tries left." */
export const wrongCodeMessage = (left: number) =>
  `That code isn't right. ${left} ${left === 1 ? "try" : "tries"} left.`;
