/**
 * Every prebuilt route of the specification's route table (directory detail pages are
 * generated per business and listed separately by the tests). The e2e, accessibility
 * and benchmark suites iterate over this list, so a route that is dropped from the
 * build fails loudly instead of silently disappearing.
 */
export const STATIC_ROUTES = [
  "/",
  "/services/tree-trimming",
  "/services/tree-removal",
  "/services/tree-pruning",
  "/services/stump-grinding",
  "/services/emergency",
  "/business-growth",
  "/business-growth/phase-1",
  "/business-growth/phase-2",
  "/business-growth/phase-3",
  "/business-growth/phase-4",
  "/business-growth/phase-5",
  "/business-growth/phase-6",
  "/automation",
  "/financial-services",
  "/locations",
  "/about",
  "/contact",
  "/blog",
  "/blog/scale-tree-service-beyond-owner-operator",
  "/blog/first-90-days-tree-service-startup",
  "/blog/pricing-strategies-profitable-tree-service",
  "/directory",
  "/how-reviews-work",
  "/find-a-tree-service",
  "/industry-analysis",
  "/ai-automation",
  "/consumer-resources",
  "/software-stack",
  "/privacy",
  "/terms",
] as const;

export type StaticRoute = (typeof STATIC_ROUTES)[number];
