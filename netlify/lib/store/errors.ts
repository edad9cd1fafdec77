/**
 * Typed failures the API maps to HTTP statuses (NotFound -> 404, Conflict -> 409). Anything
 * else thrown by the store is an infrastructure error (-> 5xx).
 */

export class StoreError extends Error {
  constructor(
    message: string,
    /** Machine-readable reason for the API layer. */
    readonly code: "NOT_FOUND" | "CONFLICT" | "INVALID",
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The addressed entity does not exist (e.g. a review for an unknown business). */
export class NotFoundError extends StoreError {
  constructor(
    readonly entity: "business" | "lead" | "change" | "claim" | "review",
    readonly id: string,
  ) {
    super(`${entity} ${JSON.stringify(id)} not found`, "NOT_FOUND");
  }
}

/** A uniqueness rule would be broken (e.g. a slug owned by another business). */
export class ConflictError extends StoreError {
  constructor(message: string) {
    super(message, "CONFLICT");
  }
}

/** This e-mail address has already reviewed this business (one review per e-mail per business). */
export class ReviewEmailTakenError extends ConflictError {
  constructor(readonly businessId: string) {
    super(`business ${JSON.stringify(businessId)} already has a review from this e-mail`);
  }
}

/** A hidden review takes no owner reply (its public placeholder shows only the reason). */
export class ReviewHiddenError extends ConflictError {
  constructor(readonly reviewId: string) {
    super(`review ${JSON.stringify(reviewId)} is hidden and takes no reply`);
  }
}

/** An idempotency key already used, within its window, for a request with other content. */
export class IdempotencyConflictError extends ConflictError {
  constructor() {
    super("idempotency key reused for a different request");
  }
}

export const isNotFound = (e: unknown): e is NotFoundError => e instanceof NotFoundError;
