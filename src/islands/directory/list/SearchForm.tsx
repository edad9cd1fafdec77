/**
 * The search box and city filter. A real GET form to /directory, so before hydration (or
 * without JavaScript) submitting loads /directory?q=&city= and the island picks the state
 * up from the URL. Both controls are uncontrolled: hydration never resets what someone
 * typed or chose while the page was loading, and the island reads them on mount.
 */
import { type ChangeEvent, type FormEvent, type RefObject } from "react";
import { ALL_CITIES, MAX_SEARCH_LENGTH } from "../../../lib/directory-url.ts";
import { CITIES } from "../../../lib/options.ts";
import { Icon } from "../../Icon.tsx";

const control =
  "block min-h-12 w-full rounded-lg border border-slate-300 bg-white py-2.5 text-base text-slate-900 shadow-sm transition-colors placeholder:text-slate-500 hover:border-forest-400 focus:outline-2 focus:outline-offset-0 focus:outline-forest-500";

interface Props {
  /** What the box and the select show first: the state of the page's URL. */
  search?: string;
  city?: string;
  inputRef: RefObject<HTMLInputElement | null>;
  selectRef: RefObject<HTMLSelectElement | null>;
  onSearchInput: (event: ChangeEvent<HTMLInputElement>) => void;
  onCityChange: (event: ChangeEvent<HTMLSelectElement>) => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

export function SearchForm({ search = "", city = ALL_CITIES, inputRef, selectRef, onSearchInput, onCityChange, onSubmit }: Props) {
  return (
    <form
      action="/directory"
      method="get"
      role="search"
      aria-label="Search the tree service directory"
      onSubmit={onSubmit}
      className="grid gap-4 rounded-card border border-forest-100 bg-white p-4 shadow-lift sm:grid-cols-[1fr_auto] sm:p-5 lg:grid-cols-[1fr_15rem_auto] lg:items-end"
    >
      <div className="sm:col-span-2 lg:col-span-1">
        <label htmlFor="directory-search" className="mb-1.5 block text-sm font-semibold text-forest-950">
          Search tree services
        </label>
        <div className="relative">
          <Icon name="search" className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-forest-500" />
          <input
            ref={inputRef}
            id="directory-search"
            name="q"
            type="search"
            defaultValue={search}
            placeholder="Company, service or keyword"
            maxLength={MAX_SEARCH_LENGTH}
            autoComplete="off"
            enterKeyHint="search"
            onChange={onSearchInput}
            className={`${control} pr-3 pl-10`}
          />
        </div>
      </div>
      <div>
        <label htmlFor="directory-city" className="mb-1.5 block text-sm font-semibold text-forest-950">
          City
        </label>
        <div className="relative">
          <Icon name="mapPin" className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-forest-500" />
          {/* Native select: the platform picker is the most usable one on phones. */}
          <select
            ref={selectRef}
            id="directory-city"
            name="city"
            defaultValue={city}
            onChange={onCityChange}
            className={`${control} appearance-none pr-10 pl-10`}
          >
            <option value={ALL_CITIES}>All Cities</option>
            {CITIES.map((city) => (
              <option key={city.value} value={city.value}>
                {city.label}
              </option>
            ))}
          </select>
          <Icon name="chevronDown" className="pointer-events-none absolute top-1/2 right-3 size-5 -translate-y-1/2 text-slate-500" />
        </div>
      </div>
      <button type="submit" className="btn-secondary min-h-12 self-end">
        <Icon name="search" className="size-5" />
        Search
      </button>
    </form>
  );
}
