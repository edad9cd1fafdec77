/**
 * What makes two listings one business (docs/import.md, "Duplicates"): the same phone digits,
 * the same website (host and path), or the same name and ZIP once both are normalized.
 */

/** The kinds of match, in the order a report names them. */
export type MatchKind = "phone" | "website" | "name and ZIP";

export interface ListingKeys {
  phone?: string;
  website?: string;
  nameZip: string;
}

/** "(208) 555-0142", "+1 208.555.0142" -> "2085550142"; undefined unless a 10-digit US number. */
export function phoneDigits(phone: string | undefined): string | undefined {
  const digits = (phone ?? "").replace(/\D/g, "");
  const ten = digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
  return ten.length === 10 ? ten : undefined;
}

/** "https://www.Example.com/Boise/?a=1" -> "example.com/boise"; undefined for no URL. */
export function websiteKey(website: string | undefined): string | undefined {
  if (!website) return undefined;
  try {
    const url = new URL(website);
    const host = url.hostname.toLowerCase().replace(/^www\./, "");
    const path = url.pathname.toLowerCase().replace(/\/+$/, "");
    return `${host}${path}`;
  } catch {
    return undefined;
  }
}

/** Words a business name may carry or drop without being another business. */
const NOISE = new Set(["the", "llc", "inc", "co", "company", "corp", "corporation", "ltd", "pllc"]);

/** "The Oak & Sons Tree Co., LLC" + "83702-1234" -> "oak and sons tree|83702". */
export function nameZipKey(name: string, zip: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['’]/g, "")
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !NOISE.has(w));
  return `${words.join(" ")}|${zip.slice(0, 5)}`;
}

export function listingKeys(b: { phone?: string; website?: string; name: string; zipCode: string }): ListingKeys {
  return { phone: phoneDigits(b.phone), website: websiteKey(b.website), nameZip: nameZipKey(b.name, b.zipCode) };
}

/** The kinds of key two listings share (empty when none). */
export function sharedKeys(a: ListingKeys, b: ListingKeys): MatchKind[] {
  const kinds: MatchKind[] = [];
  if (a.phone && a.phone === b.phone) kinds.push("phone");
  if (a.website && a.website === b.website) kinds.push("website");
  if (a.nameZip === b.nameZip) kinds.push("name and ZIP");
  return kinds;
}

/** Each key as one string, for lookups: "phone:2085550142". */
export function keyStrings(k: ListingKeys): string[] {
  return [
    ...(k.phone ? [`phone:${k.phone}`] : []),
    ...(k.website ? [`website:${k.website}`] : []),
    `name:${k.nameZip}`,
  ];
}
