/**
 * The time budget of a scheduled run (notify-outbox.mts, lead-clock.mts). Netlify stops a
 * scheduled function after 30 s; a run that starts no work past its budget, and gives a send
 * no more time than is left, ends well before that whatever the backlog or a provider's
 * speed, with room for a cold start and for settling what it did. What it did not reach stays
 * due in the store for the next run.
 */
export const RUN_BUDGET_MS = 20_000;

/** The end of a run that starts now (ms, on the same clock as `now`). */
export const runDeadline = (now: () => number, budgetMs = RUN_BUDGET_MS): number => now() + budgetMs;
