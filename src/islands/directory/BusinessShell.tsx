/**
 * The profile of a business added after the last build (served by the directory-page
 * function): loading skeleton, then the same view the prerendered pages show, or
 * "Business Not Found" (spec sections 2 and 8). The slug comes from the address bar.
 */
import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { apiGet } from "../../lib/api.ts";
import type { Business } from "../../lib/schemas/business.ts";
import { SITE } from "../../lib/site.ts";
import { NOT_FOUND } from "../../lib/directory.ts";
import { $reviews } from "../../lib/stores/directory.ts";
import { BusinessDetail, BusinessDetailSkeleton, BusinessNotFound } from "./detail/BusinessView.tsx";
import ReviewsPanel from "./detail/ReviewsPanel.tsx";

type State = { status: "loading" } | { status: "missing" } | { status: "shown-by-page" } | { status: "ready"; business: Business };

export const slugFromPath = (pathname: string) => decodeURIComponent(pathname.replace(/\/+$/, "").split("/").pop() ?? "");

export default function BusinessShell() {
  const [state, setState] = useState<State>({ status: "loading" });
  const live = useStore($reviews);

  useEffect(() => {
    // The function already knows an unknown slug and served the page as "Business Not
    // Found" (static block, title): no request, nothing to render.
    if (document.documentElement.dataset.business === "missing") {
      setState({ status: "shown-by-page" });
      return;
    }
    const controller = new AbortController();
    const slug = slugFromPath(location.pathname);
    apiGet<{ data: Business }>(`/api/businesses/slug/${encodeURIComponent(slug)}`, { signal: controller.signal })
      .then((answer) => {
        if (!answer?.data) throw new Error("empty answer");
        setState({ status: "ready", business: answer.data });
        const b = answer.data;
        document.title = `${b.name}, ${b.city}, ${b.state} | ${SITE.name}`;
      })
      .catch((error: unknown) => {
        if ((error as Error)?.name !== "AbortError") setState({ status: "missing" });
      });
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (state.status === "missing") document.title = `${NOT_FOUND.title} | ${SITE.name}`;
  }, [state.status]);

  if (state.status === "shown-by-page") return null;
  if (state.status === "loading") return <BusinessDetailSkeleton />;
  if (state.status === "missing") return <BusinessNotFound />;
  const { business } = state;
  const summary = live[business.id];
  return (
    <BusinessDetail
      business={business}
      rating={summary && summary.status !== "idle" ? summary.rating : undefined}
      reviewCount={summary && summary.status !== "idle" ? summary.reviewCount : undefined}
      reviews={<ReviewsPanel business={business} initialReviews={[]} />}
    />
  );
}
