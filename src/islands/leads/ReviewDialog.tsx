/**
 * Write Review: name required, e-mail optional, 1-5 stars
 * (default 5) as a real radio group, so arrow keys, screen readers and taps all work,
 * then optional title, text and service. Success closes the dialog, toasts and updates the
 * business's reviews and header rating; failure keeps everything typed and says so.
 */
import { useLayoutEffect, useRef, useState, type FormEvent } from "react";
import { ApiError, apiRequest } from "../../lib/api.ts";
import { STAR_COUNT } from "../../lib/directory.ts";
import { ReviewInput, type PublicReview } from "../../lib/schemas/review.ts";
import { fieldErrors, type FieldErrors } from "../../lib/schemas/forms.ts";
import { ISLAND_SENDS, closeDialog } from "../../lib/dialogs.ts";
import { showToast, type BusinessPreset } from "../../lib/stores/dialogs.ts";
import { refreshReviews, reviewAdded, reviewsUrl } from "../../lib/stores/directory.ts";
import { Star } from "../Stars.tsx";
import { REVIEW_TOASTS } from "../../lib/forms/copy.ts";
import { DialogHeader } from "../../views/leads/DialogParts.tsx";
import { errorClass, inputClass, labelClass } from "../../views/leads/LeadForm.tsx";
import type { DialogBodyProps } from "./submit.ts";

export const DEFAULT_RATING = 5;
const FIELD_ORDER = ["customerName", "customerEmail", "rating", "title", "reviewText", "serviceType"] as const;

interface ReviewAnswer {
  data: PublicReview;
  business: { id: string; rating: string; reviewCount: number };
}

/**
 * The review form's id. The island posts JSON; a submit before hydration waits for the island
 * (ISLAND_SENDS); with scripts off the browser posts the form itself (urlencoded, stars as radios).
 */
export const REVIEW_FORM_ID = "review-form";

export function ReviewDialogBody({
  preset,
  dialogId,
  defaults,
  onFinished,
}: Pick<DialogBodyProps, "dialogId" | "defaults" | "onFinished"> & { preset: BusinessPreset }) {
  const formRef = useRef<HTMLFormElement>(null);
  const initial = (name: string) => {
    const v = defaults[name];
    return typeof v === "string" ? v : "";
  };
  const [rating, setRating] = useState(() => {
    const chosen = Number(initial("rating"));
    return Number.isInteger(chosen) && chosen >= 1 && chosen <= STAR_COUNT ? chosen : DEFAULT_RATING;
  });
  // The stars are drawn as the server drew them (the default) until hydration is done: a star
  // chosen before the island was in is the state from the start, but drawing it at once would
  // not match the server's HTML, and React would re-create the form, dropping a held submit.
  const [drawn, setDrawn] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- hydration: the first render must match the server's
  useLayoutEffect(() => setDrawn(true), []);
  const shown = drawn ? rating : DEFAULT_RATING;
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const id = (name: string) => `review-${name}`;

  const show = (found: FieldErrors) => {
    setErrors(found);
    requestAnimationFrame(() => {
      const first = FIELD_ORDER.find((name) => found[name] !== undefined);
      if (!first) return;
      const el =
        first === "rating"
          ? formRef.current?.querySelector<HTMLInputElement>('input[name="rating"]:checked')
          : document.getElementById(id(first));
      el?.focus();
    });
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "");
    const payload = {
      customerName: text("customerName"),
      customerEmail: text("customerEmail"),
      rating,
      title: text("title"),
      reviewText: text("reviewText"),
      serviceType: text("serviceType"),
      businessId: preset.businessId,
    };
    const checked = ReviewInput.safeParse(payload);
    if (!checked.success) {
      show(fieldErrors(checked.error));
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const res = await apiRequest("POST", reviewsUrl(preset.businessId), payload);
      // A 2xx means the review is stored whatever its body: an unreadable one must not invite a duplicate.
      const answer = (await res.json().catch(() => null)) as Partial<ReviewAnswer> | null;
      closeDialog("review");
      onFinished();
      showToast(REVIEW_TOASTS.success);
      if (answer?.data && answer.business) void reviewAdded(preset.businessId, answer.data, answer.business);
      else void refreshReviews(preset.businessId);
      // The page's reviews are server HTML until now: from here on they follow the store. A
      // chunk of its own, so no page loads it before a review is posted.
      import("../directory/detail/live-reviews.tsx")
        .then(({ followReviews }) => followReviews(preset.businessId, preset.businessName))
        .catch(() => {}); // the list then updates on the next load, as without JavaScript
    } catch (error) {
      // A refusal with its own words (409 one review per e-mail, 429 limits) says them.
      const refusal =
        error instanceof ApiError && (error.status === 409 || error.status === 429)
          ? error.json<{ error?: unknown }>()?.error
          : undefined;
      showToast(
        typeof refusal === "string" ? { ...REVIEW_TOASTS.failure, description: refusal } : REVIEW_TOASTS.failure,
      );
      const fields =
        error instanceof ApiError && (error.status === 400 || error.status === 409) ? error.fields : undefined;
      if (fields && Object.keys(fields).length > 0) show(fields);
      setPending(false);
    }
  }

  const clear = (name: string) => {
    if (errors[name] !== undefined) setErrors(({ [name]: _gone, ...rest }) => rest);
  };
  const describe = (name: string) => (errors[name] ? `${id(name)}-error` : undefined);
  const errorText = (name: string) =>
    errors[name] ? (
      <p id={`${id(name)}-error`} className={errorClass}>
        {errors[name]}
      </p>
    ) : null;

  return (
    <>
      <DialogHeader
        dialogId={dialogId}
        title="Write a Review"
        description={`Share your experience with ${preset.businessName || "this business"}.`}
      />
      <form
        ref={formRef}
        id={REVIEW_FORM_ID}
        // Without JavaScript the browser posts the same fields urlencoded; the endpoint answers with pages.
        method="post"
        action={reviewsUrl(preset.businessId)}
        noValidate
        onSubmit={onSubmit}
        {...{ [ISLAND_SENDS]: "" }}
        className="review-form grid gap-4 sm:grid-cols-2"
        aria-busy={pending || undefined}
      >
        <div>
          <label htmlFor={id("customerName")} className={labelClass}>
            Your Name
            <span className="text-red-700" aria-hidden="true">
              {" "}
              *
            </span>
          </label>
          <input
            id={id("customerName")}
            name="customerName"
            type="text"
            defaultValue={initial("customerName")}
            autoComplete="name"
            aria-required="true"
            aria-invalid={errors.customerName ? true : undefined}
            aria-describedby={describe("customerName")}
            onChange={() => clear("customerName")}
            className={inputClass}
          />
          {errorText("customerName")}
        </div>
        <div>
          <label htmlFor={id("customerEmail")} className={labelClass}>
            Email <span className="font-normal text-slate-500">(optional, never shown)</span>
          </label>
          <input
            id={id("customerEmail")}
            name="customerEmail"
            defaultValue={initial("customerEmail")}
            type="email"
            autoComplete="email"
            aria-invalid={errors.customerEmail ? true : undefined}
            aria-describedby={describe("customerEmail")}
            onChange={() => clear("customerEmail")}
            className={inputClass}
          />
          {errorText("customerEmail")}
        </div>
        <fieldset className="sm:col-span-2" aria-describedby={describe("rating")}>
          <legend className={labelClass}>Rating</legend>
          <div className="review-stars flex items-center gap-1">
            {Array.from({ length: STAR_COUNT }, (_, i) => {
              const value = i + 1;
              const on = value <= shown;
              return (
                <label
                  key={value}
                  className="relative inline-flex size-11 cursor-pointer items-center justify-center rounded-md has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-forest-600"
                >
                  <input
                    type="radio"
                    name="rating"
                    value={value}
                    checked={rating === value}
                    onChange={() => {
                      setRating(value);
                      clear("rating");
                    }}
                    className="sr-only"
                    aria-label={`${value} ${value === 1 ? "star" : "stars"}`}
                  />
                  <Star on={on} size="size-8" emptyFill="fill-slate-100" />
                </label>
              );
            })}
            <span className="review-stars-count ml-2 text-sm text-slate-600" aria-hidden="true">
              {shown} / {STAR_COUNT}
            </span>
          </div>
          {errorText("rating")}
        </fieldset>
        <div className="sm:col-span-2">
          <label htmlFor={id("title")} className={labelClass}>
            Title
          </label>
          <input
            id={id("title")}
            name="title"
            type="text"
            defaultValue={initial("title")}
            className={inputClass}
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={describe("title")}
            onChange={() => clear("title")}
          />
          {errorText("title")}
        </div>
        <div className="sm:col-span-2">
          <label htmlFor={id("reviewText")} className={labelClass}>
            Your Review
          </label>
          <textarea
            id={id("reviewText")}
            name="reviewText"
            defaultValue={initial("reviewText")}
            rows={4}
            className={inputClass}
            aria-invalid={errors.reviewText ? true : undefined}
            aria-describedby={describe("reviewText")}
            onChange={() => clear("reviewText")}
          />
          {errorText("reviewText")}
        </div>
        <div className="sm:col-span-2">
          <label htmlFor={id("serviceType")} className={labelClass}>
            Service Type
          </label>
          <select
            id={id("serviceType")}
            name="serviceType"
            className={inputClass}
            defaultValue={initial("serviceType")}
            aria-describedby={describe("serviceType")}
          >
            <option value="">Select a service (optional)</option>
            {preset.services.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          {errorText("serviceType")}
        </div>
        <div className="sm:col-span-2">
          <button
            type="submit"
            disabled={pending}
            className="btn-primary w-full disabled:cursor-not-allowed disabled:opacity-70"
          >
            {pending ? "Submitting..." : "Submit Review"}
          </button>
        </div>
      </form>
    </>
  );
}
