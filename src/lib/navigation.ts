/**
 * Site navigation as data: the header, the mobile menu, the footer and the e2e link
 * checks all read these lists, so a route is renamed in one place.
 */
import { ADD_BUSINESS_LABEL, ADD_BUSINESS_PATH } from "./owner-links.ts";

export interface NavLink {
  /** Visible label. */
  label: string;
  /** Internal path (no trailing slash). */
  href: string;
  /** Highlight this link when the current path is it or below it. */
  highlight?: boolean;
}

/** A footer entry without a destination yet: rendered as plain text, never as a dead link. */
export interface NavPlaceholder {
  label: string;
  href?: undefined;
}

export type FooterItem = NavLink | NavPlaceholder;

export const HOME: NavLink = { label: "Home", href: "/" };
export const FIND_TREE_SERVICE: NavLink = { label: "Find Tree Service", href: "/find-a-tree-service", highlight: true };
export const MARKET_INTELLIGENCE: NavLink = {
  label: "Market Intelligence",
  href: "/industry-analysis",
  highlight: true,
};

/** The Business Growth dropdown: two labeled groups. */
export const GROWTH_MENU: { label: string; href: string; groups: { title: string; links: NavLink[] }[] } = {
  label: "Business Growth",
  href: "/business-growth",
  groups: [
    {
      title: "Growth Solutions",
      links: [
        { label: "Growth Program", href: "/business-growth" },
        { label: "AI Automation", href: "/ai-automation" },
      ],
    },
    {
      title: "Growth Phases",
      links: [
        { label: "Phase 1: Part-Time to Full-Time", href: "/business-growth/phase-1" },
        { label: "Phase 2: Lead Generation & Pricing", href: "/business-growth/phase-2" },
        { label: "Phase 3: Scaling With Automation", href: "/business-growth/phase-3" },
      ],
    },
  ],
};

/** Top-level header links, in order, around the Business Growth dropdown. */
export const HEADER_LINKS_BEFORE_MENU: NavLink[] = [HOME, FIND_TREE_SERVICE];
export const HEADER_LINKS_AFTER_MENU: NavLink[] = [
  MARKET_INTELLIGENCE,
  { label: "Blog", href: "/blog" },
  { label: "About", href: "/about" },
];

/** Extra links only the mobile side menu carries. */
export const MOBILE_EXTRA_LINKS: NavLink[] = [
  { label: "Tree Trimming", href: "/services/tree-trimming" },
  { label: "Tree Removal", href: "/services/tree-removal" },
  { label: "Stump Grinding", href: "/services/stump-grinding" },
  { label: "24/7 Emergency Service", href: "/services/emergency" },
  { label: "Business Automation", href: "/automation" },
  { label: "Financial Services", href: "/financial-services" },
  { label: "Tree Service Directory", href: "/directory" },
  { label: "Service Areas", href: "/locations" },
  { label: "Contact", href: "/contact" },
];

export const FOOTER_COLUMNS: { title: string; items: FooterItem[] }[] = [
  {
    title: "Tree Services",
    items: [
      { label: "Tree Trimming", href: "/services/tree-trimming" },
      { label: "Tree Removal", href: "/services/tree-removal" },
      { label: "Tree Pruning", href: "/services/tree-pruning" },
      { label: "Stump Grinding", href: "/services/stump-grinding" },
      { label: "Emergency Service", href: "/services/emergency" },
      { label: "Tree Health Assessment" },
    ],
  },
  {
    title: "Business Growth",
    items: [
      { label: "Growth Program", href: "/business-growth" },
      { label: "AI Quoting System" },
      { label: "Marketing & SEO" },
      { label: "Fractional CFO" },
      { label: "Exit Strategy", href: "/business-growth/phase-6" },
      { label: ADD_BUSINESS_LABEL, href: ADD_BUSINESS_PATH },
    ],
  },
  {
    title: "Company",
    items: [
      { label: "About Us", href: "/about" },
      { label: "Our Team" },
      { label: "Careers" },
      { label: "Case Studies" },
      { label: "Blog", href: "/blog" },
      { label: "Contact", href: "/contact" },
    ],
  },
];

export const LEGAL_LINKS: NavLink[] = [
  { label: "Privacy Policy", href: "/privacy" },
  { label: "Terms of Service", href: "/terms" },
];

/** Social profiles are not live yet: shown as icons without links. */
export const SOCIAL_PLACEHOLDERS = ["Facebook", "Instagram", "LinkedIn", "YouTube"] as const;

/** True when `href` should be marked as the current page (or its section) for `path`. */
export function isActive(href: string, path: string): boolean {
  const current = path.replace(/\/$/, "") || "/";
  if (href === "/") return current === "/";
  return current === href || current.startsWith(`${href}/`);
}

/**
 * The public path of a page from Astro.url, which during a `build.format: "file"`
 * prerender reads `/about.html` or `/index.html`.
 */
export function publicPath(pathname: string): string {
  const clean = pathname
    .replace(/\.html$/, "")
    .replace(/\/index$/, "")
    .replace(/\/$/, "");
  return clean || "/";
}
