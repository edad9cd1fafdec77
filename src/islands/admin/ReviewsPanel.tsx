/**
 * Review moderation: every review of every business, hidden ones included, newest first, with
 * the owner's reply under it. Hide (with a reason from HIDE_REASONS, never the rating) leaves
 * a placeholder with that reason on the public page and takes the review out of the business's
 * rating and JSON-LD (Show puts it back). There is no Verify: Verified comes only from the
 * invitation after an accepted job. Review and reply text is rendered as text.
 */
import { useCallback, useState } from "react";
import type { AdminReview } from "../../lib/admin.ts";
import { HIDE_REASONS, hiddenLine, type HideReason } from "../../lib/schemas/review.ts";
import { adminJson, formatWhen } from "./api.ts";
import { OwnerReplyView } from "../directory/detail/ReviewsPanel.tsx";
import { ErrorAlert, Pager, useAdminAction, useCursorList, type CursorPage, type PanelProps } from "./ListParts.tsx";
import { inputClass } from "../../views/leads/LeadForm.tsx";
import { SampleBadge } from "../../views/SampleBadge.tsx";

export function ReviewsPanel({ token, refreshKey, onAuthError }: PanelProps) {
  const fetchPage = useCallback(
    (from: string | null) =>
      adminJson<CursorPage<AdminReview>>(
        token,
        `/api/admin/reviews?limit=25${from ? `&cursor=${encodeURIComponent(from)}` : ""}`,
      ),
    [token],
  );
  const { items, setItems, cursor, loading, error, setError, more } = useCursorList<AdminReview>(
    fetchPage,
    refreshKey,
    onAuthError,
  );
  const { busy, run } = useAdminAction(onAuthError, setError);

  const [reasons, setReasons] = useState<Record<string, HideReason | "">>({});

  const moderate = (review: AdminReview, change: { hidden: boolean; hiddenReason?: HideReason }) =>
    run(review.id, async () => {
      const body = await adminJson<{ data: AdminReview }>(
        token,
        `/api/admin/reviews/${encodeURIComponent(review.id)}`,
        { method: "PATCH", body: change },
      );
      setItems((current) => current.map((r) => (r.id === review.id ? body.data : r)));
    });

  return (
    <section aria-label="Reviews" aria-busy={loading || undefined}>
      <p className="text-sm text-slate-600">
        A hidden review shows on the public page only as "Hidden: reason" and leaves the business's rating. Reasons are
        about content, never the rating. Verified comes only from the invitation after an accepted job.
      </p>
      <ErrorAlert error={error} />
      {items.length === 0 && !loading ? <p className="mt-6 text-slate-600">No reviews yet.</p> : null}
      <ul className="mt-4 space-y-3" aria-label="Reviews, newest first">
        {items.map((review) => (
          <li
            key={review.id}
            className={`card p-4 sm:p-5 ${review.hidden ? "opacity-75" : ""}`}
            data-review-id={review.id}
          >
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="font-semibold text-slate-900">{review.customerName}</span>
              <span className="text-sm text-amber-800" role="img" aria-label={`${review.rating} out of 5 stars`}>
                {"★".repeat(review.rating)}
                <span className="text-slate-300">{"★".repeat(5 - review.rating)}</span>
              </span>
              {review.isVerified ? (
                <span className="badge bg-forest-100 text-forest-800">Verified</span>
              ) : (
                <span className="text-xs text-slate-500">Unverified</span>
              )}
              {review.hidden ? (
                <span className="badge bg-slate-200 text-slate-700">{hiddenLine(review.hiddenReason)}</span>
              ) : null}
            </div>
            <p className="mt-1 text-sm text-slate-600">
              {review.businessSlug ? (
                <a className="link" href={`/directory/${encodeURIComponent(review.businessSlug)}`}>
                  {review.businessName ?? review.businessId}
                </a>
              ) : (
                review.businessId
              )}
              {review.businessSample ? <SampleBadge className="ml-1" /> : null}
              {" · "}
              <time dateTime={review.createdAt}>{formatWhen(review.createdAt)}</time>
              {review.customerEmail ? <span className="break-all"> · {review.customerEmail}</span> : null}
            </p>
            {review.title ? <h3 className="mt-2 font-semibold text-slate-900">{review.title}</h3> : null}
            {review.reviewText ? (
              <p className="mt-1 break-words whitespace-pre-line text-slate-700">{review.reviewText}</p>
            ) : null}
            {review.reply ? (
              <OwnerReplyView reply={review.reply} businessName={review.businessName ?? review.businessId} />
            ) : null}
            <div className="mt-3 flex flex-wrap gap-2">
              {review.hidden ? (
                <button
                  type="button"
                  className="btn-outline btn-sm"
                  disabled={busy === review.id}
                  onClick={() => void moderate(review, { hidden: false })}
                >
                  Show
                </button>
              ) : (
                <>
                  <select
                    className={`${inputClass} w-auto py-1 text-sm`}
                    aria-label="Reason to hide"
                    value={reasons[review.id] ?? ""}
                    onChange={(e) => setReasons((r) => ({ ...r, [review.id]: e.target.value as HideReason | "" }))}
                  >
                    <option value="">Reason to hide…</option>
                    {(Object.keys(HIDE_REASONS) as HideReason[]).map((key) => (
                      <option key={key} value={key}>
                        {HIDE_REASONS[key]}
                      </option>
                    ))}
                  </select>
                  <button
                    type="button"
                    className="btn-outline btn-sm"
                    disabled={busy === review.id || !reasons[review.id]}
                    onClick={() => {
                      const reason = reasons[review.id];
                      if (reason) void moderate(review, { hidden: true, hiddenReason: reason });
                    }}
                  >
                    Hide
                  </button>
                </>
              )}
            </div>
          </li>
        ))}
      </ul>
      <Pager cursor={cursor} loading={loading} onMore={more} />
    </section>
  );
}
