/**
 * Writes a later write of the same caller makes durable. The embedded store appends every
 * write to one log in order, so once a record is on disk every record before it is too: a
 * write made inside `coveredByNextWrite` is answered once appended, and the caller's next
 * ordinary write (answered once synced) makes both durable together. A crash before that loses
 * both, and nothing was acknowledged for either. Redis and Upstash ignore it.
 *
 * Only for a step of a unit that always ends in an ordinary write, or in nothing the caller
 * answers with (a claim that loses its race and reads the winner instead: the read waits for
 * whatever it saw to be on disk).
 */
import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<true>();

/** Runs fn with its writes answered before they are on disk (see above). */
export const coveredByNextWrite = <T>(fn: () => Promise<T>): Promise<T> => scope.run(true, fn);

/** Whether the running write is covered by a later one. */
export const isCoveredByNextWrite = (): boolean => scope.getStore() === true;
