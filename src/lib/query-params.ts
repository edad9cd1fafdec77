/**
 * A known query parameter given twice (`?city=a&city=b`) is refused, by the API and by the
 * on-demand pages alike: a CDN keys its copy on the whole query string, so an answer built
 * from one of the values must never be stored under a URL that also names another.
 */

/** The field message for a repeated parameter. */
export const repeatedParamMessage = (name: string) => `Give "${name}" only once.`;

/** The first of `names` that `params` carries more than once, or undefined. */
export function repeatedParam(params: URLSearchParams, names: Iterable<string>): string | undefined {
  for (const name of names) if (params.getAll(name).length > 1) return name;
  return undefined;
}
