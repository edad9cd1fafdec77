/**
 * The storm notice: what a visitor reads on a page about a place inside an active storm
 * (src/lib/storm-notice.ts has every word). Plain markup, no state: the on-demand pages render it on
 * the server, the directory list island renders the same when its API answer carries a storm.
 */
import { SITE } from "../../lib/site.ts";
import { STORM_NOTICE, priceRuleLine, type StormNotice as Notice } from "../../lib/storm-notice.ts";

export function StormNotice({
  notice,
  className = "",
  level = 2,
  safetyShown = false,
}: {
  notice: Notice;
  className?: string;
  /** Its heading's level where it sits (2 on a page; deeper inside a confirmation); its parts one below. */
  level?: 2 | 3 | 4;
  /** The page already said the safety lines and the hotline first (an emergency's box): not twice. */
  safetyShown?: boolean;
}) {
  const headingId = `storm-${notice.id}`;
  const Heading = `h${level}` as const;
  const Part = `h${level + 1}` as "h3" | "h4" | "h5";
  return (
    <section
      aria-labelledby={headingId}
      className={`rounded-lg border-2 border-red-300 bg-red-50 p-4 text-slate-900 sm:p-5 ${className}`}
      data-testid="storm-notice"
    >
      <Heading id={headingId} className="text-lg font-bold text-red-900">
        {STORM_NOTICE.heading}: {notice.name}
      </Heading>
      <p className="mt-1 text-sm text-slate-700">
        {notice.declaration}
        {notice.declarationUrl ? (
          <>
            {" "}
            <a className="link" href={notice.declarationUrl} rel="noopener">
              Read the declaration
            </a>
          </>
        ) : null}
      </p>
      {safetyShown ? null : (
        <>
          <ul className="mt-3 list-disc space-y-1 pl-5 font-semibold">
            {STORM_NOTICE.safety.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="mt-3">
            {STORM_NOTICE.hotline.label}:{" "}
            <a href={SITE.phoneHref} className="link font-semibold whitespace-nowrap">
              {SITE.phone}
            </a>
          </p>
        </>
      )}
      <Part className="mt-4 font-semibold text-red-900">{STORM_NOTICE.chasersHeading}</Part>
      <ul className="mt-1 list-disc space-y-1 pl-5 text-sm">
        {STORM_NOTICE.chasers.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <Part className="mt-4 font-semibold text-red-900">{STORM_NOTICE.priceHeading}</Part>
      <p className="mt-1 text-sm" data-testid="storm-price-rule">
        {priceRuleLine(notice.rule)}
      </p>
    </section>
  );
}
