/**
 * A name's possessive as US style writes it: "Oak & Sons' page", "Bob's page". A name that
 * ends in "s" takes the apostrophe alone.
 */
export function possessive(name: string): string {
  const trimmed = name.trim();
  return /s$/i.test(trimmed) ? `${trimmed}'` : `${trimmed}'s`;
}
