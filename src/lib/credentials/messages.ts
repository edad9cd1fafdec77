/** The messages of the owner's credentials form (`tooLong` also bounds the operator's note). */
export const CREDENTIAL_MESSAGES = {
  state: "Please choose the state that issued the license",
  type: "Please choose a license type for that state",
  number: "Please enter the license number",
  carrier: "Please enter the insurance company's name",
  cover: "Please enter the cover in dollars, e.g. $1,000,000",
  coverRange: "Cover must be between $1 and $1,000,000,000",
  expiresOn: "Please enter the last day of cover",
  expired: "That date has passed: enter the expiry of your current policy",
  tooLong: "This is too long",
} as const;
