/**
 * What the pages behind a lead's links show: the visitor's status page (/requests/{id}/{sig}),
 * a business's answer page (/respond/{token}) and the review invitation (/review/{token}).
 * Each loader checks the link (signing.ts), reads the lead, and returns the page's content as
 * plain data, or why the link cannot be used. The pages render it (src/pages/...).
 */
export { LINK_PROBLEMS, UNAVAILABLE, type LinkProblem, type Loaded, type Row } from "./delivery-link.ts";
export {
  EMERGENCY_LINE,
  STATE_BADGES,
  loadStatusPage,
  statusPageOf,
  type Holder,
  type StateTone,
  type StatusPage,
} from "./delivery-status.ts";
export {
  ANSWER_PAGE_CSP,
  ANSWER_PAGE_REFERRER_POLICY,
  CONTACTS_NOTE,
  DECLINE_REASONS,
  REPORT_REASONS,
  WITHDRAW_REASONS,
  answerPageOf,
  loadAnswerPage,
  type AnswerPage,
  type AnswerState,
  type ContactRow,
} from "./delivery-answer.ts";
export {
  REVIEW_NOTICES,
  VERIFIED_BECAUSE,
  loadReviewInvite,
  reviewQuestion,
  type ReviewInvitePage,
} from "./delivery-review.ts";
