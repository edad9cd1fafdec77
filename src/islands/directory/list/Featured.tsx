/** The Featured section above the full list (shown while the list is not filtered). */
import type { ListBusiness } from "../../../lib/directory-list.ts";
import { BusinessCard } from "./BusinessCard.tsx";

interface Props {
  featured: ListBusiness[];
  /** The clock for the cards' Open now / Closed badges (ms). */
  now?: number;
}

export function Featured({ featured, now }: Props) {
  return (
    <section className="container-page pt-10 sm:pt-14" aria-labelledby="featured-heading">
      <h2 id="featured-heading" className="text-2xl font-bold sm:text-3xl">
        Featured Tree Services
      </h2>
      <p className="mt-1 text-slate-600">Highlighted local companies with strong customer reviews.</p>
      {/*
        Phones: one swipeable row, so eight featured cards do not stand between the
        visitor and the full list (which starts with them anyway). Grid from md.
        `relative` makes the row the containing block of the cards' sr-only text, which
        is absolutely positioned: otherwise it escapes the row's clipping and widens the
        page, and phones zoom the whole page out to fit it.
      */}
      <ul
        className="relative -mx-4 mt-6 flex snap-x snap-mandatory scroll-px-4 gap-4 overflow-x-auto px-4 pb-4 sm:-mx-6 sm:scroll-px-6 sm:px-6 md:mx-0 md:grid md:snap-none md:grid-cols-2 md:gap-5 md:overflow-visible md:px-0 md:pb-0 lg:grid-cols-3"
        data-testid="featured-list"
      >
        {featured.map((business) => (
          <BusinessCard
            key={business.id}
            business={business}
            now={now}
            className="w-[85%] max-w-sm shrink-0 snap-start md:w-auto md:max-w-none"
          />
        ))}
      </ul>
    </section>
  );
}
