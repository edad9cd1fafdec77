/**
 * A name as an owner of something, in US English: "Maple Trees' page", "Oak Co.'s page". A name
 * ending in s takes the apostrophe alone.
 */
export function possessive(name: string): string {
  const trimmed = name.trim();
  return /s$/i.test(trimmed) ? `${trimmed}'` : `${trimmed}'s`;
}
