/**
 * The sample directory's words: a generated business (`Business.isSample`, written by
 * scripts/generate-directory.ts) is a demo, and every page and card showing one says so.
 * Shared by the pages, the islands and the functions.
 */

/** The label on every page and card showing a sample business. */
export const SAMPLE_LISTING = "Sample listing";

/** The directory's notice while sample businesses are listed. */
export const SAMPLE_DIRECTORY_NOTICE = "These listings and reviews are a demo: sample businesses, not real companies.";

/** The business page's line under its label. */
export const SAMPLE_BUSINESS_NOTICE =
  "This is a sample listing for a demo of the directory: not a real company, and its reviews are samples too.";

/** True for a sample business (absent or false = a real one). */
export const isSampleBusiness = (b: { isSample?: boolean } | null | undefined): boolean => b?.isSample === true;
