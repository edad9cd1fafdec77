/**
 * What the list needs of a business. The page passes its prerendered first page as island
 * props, which Astro serialises into the HTML; picking the card's fields keeps hours,
 * photos, addresses and the rest out of that payload.
 */
import type { Business } from "../../../lib/schemas/business.ts";

export type ListBusiness = Pick<
  Business,
  "id" | "name" | "slug" | "description" | "city" | "state" | "phone" | "rating" | "reviewCount" | "isFeatured" | "services"
>;

/** One page of GET /api/businesses. */
export interface ListPage {
  data: ListBusiness[];
  total: number;
}

export function toListBusiness(b: ListBusiness): ListBusiness {
  const { id, name, slug, description, city, state, phone, rating, reviewCount, isFeatured, services } = b;
  return { id, name, slug, description, city, state, ...(phone ? { phone } : {}), rating, reviewCount, isFeatured, services };
}
