/** Loads `.env` into process.env without overriding (not under a test runner); returns the names it set. */
export function loadDotEnv(file?: string): string[];
