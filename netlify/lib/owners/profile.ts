/**
 * GET/POST /owner/profile: one plain form (works without JavaScript) for what an owner says
 * about the business: description, services, areas, website, phone, weekly hours, holiday
 * closures and other closed days. A valid post goes through applyListingChange (stored,
 * recorded for /admin, cache purged) and answers 303 back here with a notice; an invalid one
 * answers 400 with the form as posted and each message next to its field, and changes nothing.
 */
import { CLOSING_HOLIDAYS, closingHolidaysOf } from "../../../src/lib/holidays.ts";
import { daySpans, isOpen247 } from "../../../src/lib/hours.ts";
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { WEEKDAYS } from "../../../src/lib/options.ts";
import { ProfileInput, profileFormInput, profilePatch } from "../../../src/lib/owner-profile/form.ts";
import { DAY_MODES, dayFields, keepUntouchedDays, type DayMode } from "../../../src/lib/owner-profile/hours.ts";
import {
  CLOSED_DATE_ROWS,
  HOLIDAYS_IGNORED,
  PROFILE_LIMITS,
  PROFILE_SAVED,
  splitDayNote,
} from "../../../src/lib/owner-profile/messages.ts";
import { sameServices, serviceChoices, serviceKey } from "../../../src/lib/owner-profile/services.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { fieldErrors, type FieldErrors } from "../../../src/lib/schemas/forms.ts";
import { netlifyPurge, type Purge } from "../directory.ts";
import { KB, storeCall, type Endpoint, type EndpointDeps } from "../http.ts";
import { applyListingChange, type ListingPatch } from "./changes.ts";
import { knownNotice, ownerEndpoint, ownerHtml, ownerPage, seeOwnerPage } from "./page.ts";

export const PROFILE_ROUTE = "/owner/profile";
export const PROFILE_INVALID = "Please check the fields marked below. Nothing was saved.";
export const PROFILE_UNCHANGED = "Nothing changed.";

const DAY_LABEL = (d: string) => d[0]!.toUpperCase() + d.slice(1);
const MODE_LABELS: Record<DayMode, string> = { open: "Open", closed: "Closed", "24h": "24 hours" };

/** What the form shows: the business as stored, or the post as sent (after an error). */
export interface ProfileValues {
  description: string;
  services: string[];
  serviceAreas: string;
  website: string;
  phone: string;
  hours: Record<string, { mode: string; open: string; close: string }>;
  closedHolidays: string[];
  closedDates: { date: string; note?: string }[];
}

export function valuesOf(b: Business): ProfileValues {
  return {
    description: b.description,
    services: b.services,
    serviceAreas: b.serviceAreas.join("\n"),
    website: b.website ?? "",
    phone: b.phone ?? "",
    hours: Object.fromEntries(WEEKDAYS.map((d) => [d, dayFields(b.businessHours[d])])),
    closedHolidays: closingHolidaysOf(b),
    closedDates: b.closedDates ?? [],
  };
}

const str = (v: unknown) => (typeof v === "string" ? v : "");
const strs = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function postedValues(input: Record<string, unknown>): ProfileValues {
  const hours = (input.hours ?? {}) as Record<string, { mode: string; open: string; close: string }>;
  return {
    description: str(input.description),
    services: strs(input.services),
    serviceAreas: str(input.serviceAreas),
    website: str(input.website),
    phone: str(input.phone),
    hours,
    closedHolidays: strs(input.closedHolidays),
    closedDates: (Array.isArray(input.closedDates) ? input.closedDates : []) as { date: string; note?: string }[],
  };
}

/** The form, with `errors` by field path ("hours.monday", "closedDates.0.date") beside their fields. */
export function profileForm(business: Business, v: ProfileValues, errors: FieldErrors = {}): string {
  const err = (key: string) => {
    const message = errors[key];
    return message ? `<p class="field-error" id="err-${escapeHtml(key)}">${escapeHtml(message)}</p>` : "";
  };
  const invalid = (key: string) =>
    errors[key] ? ` aria-invalid="true" aria-describedby="err-${escapeHtml(key)}"` : "";
  const firstError = (prefix: string) => Object.keys(errors).find((k) => k === prefix || k.startsWith(`${prefix}.`));
  const groupErr = (prefix: string) => {
    const key = firstError(prefix);
    return key ? err(key) : "";
  };

  const ticked = new Set(v.services.map(serviceKey));
  const services = serviceChoices([...business.services, ...v.services])
    .map(
      (s) =>
        `<label class="check"><input type="checkbox" name="services" value="${escapeHtml(s)}"${ticked.has(serviceKey(s)) ? " checked" : ""}> ${escapeHtml(s)}</label>`,
    )
    .join("");

  const days = WEEKDAYS.map((d) => {
    const day = v.hours[d] ?? { mode: "closed", open: "", close: "" };
    const modes = DAY_MODES.map(
      (m) =>
        `<label class="check"><input type="radio" name="${d}.mode" value="${m}"${day.mode === m ? " checked" : ""}> ${MODE_LABELS[m]}</label>`,
    ).join("");
    return (
      `<fieldset data-day="${d}"><legend>${DAY_LABEL(d)}</legend>` +
      `<div style="display:flex;flex-wrap:wrap;gap:.5rem 1rem">${modes}</div>` +
      `<div style="display:flex;flex-wrap:wrap;gap:.5rem 1rem">` +
      `<label>Opens<input type="time" name="${d}.open" value="${escapeHtml(day.open)}"${invalid(`hours.${d}`)}></label>` +
      `<label>Closes<input type="time" name="${d}.close" value="${escapeHtml(day.close)}"${invalid(`hours.${d}`)}></label>` +
      `</div>${daySpans(business.businessHours[d]).length > 1 ? `<p class="hint">${escapeHtml(splitDayNote(business.businessHours[d]!))}</p>` : ""}${err(`hours.${d}`)}</fieldset>`
    );
  }).join("");

  const holidays = CLOSING_HOLIDAYS.map(
    (h) =>
      `<label class="check"><input type="checkbox" name="closedHolidays" value="${escapeHtml(h)}"${v.closedHolidays.includes(h) ? " checked" : ""}> ${escapeHtml(h)}</label>`,
  ).join("");

  // As the public page reads it (hours.ts): holidays never close these listings.
  const ignored = business.emergency247
    ? HOLIDAYS_IGNORED.emergency247
    : isOpen247(business.businessHours)
      ? HOLIDAYS_IGNORED.open247
      : "";
  const holidayHint = ignored
    ? `<p class="hint" data-holidays-ignored="">${escapeHtml(ignored)}</p>`
    : `<p class="hint">Leave all unticked if you are open on every one.</p>`;

  const rows = [...v.closedDates, ...Array.from({ length: CLOSED_DATE_ROWS }, () => ({ date: "", note: "" }))]
    .map(
      (row, i) =>
        `<div style="display:flex;flex-wrap:wrap;gap:.5rem 1rem">` +
        `<label>Date<input type="date" name="closedDate" value="${escapeHtml(row.date)}"${invalid(`closedDates.${i}.date`)}></label>` +
        `<label>Note (optional)<input type="text" name="closedNote" maxlength="${PROFILE_LIMITS.closedNote}" value="${escapeHtml(row.note ?? "")}"${invalid(`closedDates.${i}.note`)}></label>` +
        `</div>${err(`closedDates.${i}.date`)}${err(`closedDates.${i}.note`)}`,
    )
    .join("");

  return (
    `<form class="owner-form" method="post" action="${PROFILE_ROUTE}" novalidate>` +
    `<fieldset><legend>About</legend>` +
    `<label for="description">Description<textarea id="description" name="description" rows="6" maxlength="${PROFILE_LIMITS.description}"${invalid("description")}>${escapeHtml(v.description)}</textarea></label>${err("description")}` +
    `</fieldset>` +
    `<fieldset><legend>Services</legend>${services}${groupErr("services")}</fieldset>` +
    `<fieldset><legend>Areas you serve</legend>` +
    `<label for="serviceAreas">One town or neighbourhood per line<textarea id="serviceAreas" name="serviceAreas" rows="5"${invalid("serviceAreas")}>${escapeHtml(v.serviceAreas)}</textarea></label>${groupErr("serviceAreas")}` +
    `</fieldset>` +
    `<fieldset><legend>Contact</legend>` +
    `<label for="website">Website<input id="website" type="url" name="website" inputmode="url" placeholder="https://" value="${escapeHtml(v.website)}"${invalid("website")}></label>${err("website")}` +
    `<label for="phone">Phone<input id="phone" type="tel" name="phone" maxlength="${PROFILE_LIMITS.phone}" value="${escapeHtml(v.phone)}"${invalid("phone")}></label>${err("phone")}` +
    `</fieldset>` +
    `<fieldset id="hours"><legend>Opening hours</legend><p class="hint">A closing time before the opening time means after midnight. Times are your business's local time.</p>${days}</fieldset>` +
    `<fieldset><legend>Public holidays you close on</legend>${holidayHint}${holidays}${groupErr("closedHolidays")}</fieldset>` +
    `<fieldset><legend>Other days you are closed</legend><p class="hint">Clear a date to remove it.</p>${rows}${errors.closedDates ? err("closedDates") : ""}</fieldset>` +
    `<button type="submit" class="btn-primary">Save changes</button>` +
    `</form>`
  );
}

export interface OwnerProfileDeps extends EndpointDeps {
  purge?: Purge;
}

export function ownerProfileHandler(deps: OwnerProfileDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  return ownerEndpoint(
    {
      log: "[owner] profile",
      methods: ["GET", "HEAD", "POST"],
      body: { urlencoded: 32 * KB },
      rateLimit: { name: "owner-profile", perMinute: () => 30 },
    },
    deps,
    async (call, { business, session }) => {
      const page = (body: string, status = 200, extra: { notice?: string; problem?: string } = {}) =>
        ownerHtml(ownerPage({ title: "Profile & hours", business, active: PROFILE_ROUTE, body, ...extra }), status);
      if (!call.body) {
        const notice = knownNotice(call.req, [PROFILE_SAVED, PROFILE_UNCHANGED]);
        return page(profileForm(business, valuesOf(business)), 200, { notice });
      }
      const input = profileFormInput(call.body.value);
      const parsed = ProfileInput.safeParse(input);
      if (!parsed.success) {
        return page(profileForm(business, postedValues(input), fieldErrors(parsed.error)), 400, {
          problem: PROFILE_INVALID,
        });
      }
      const patch: ListingPatch = profilePatch(parsed.data);
      patch.businessHours = keepUntouchedDays(
        business.businessHours,
        input.hours as Parameters<typeof keepUntouchedDays>[1],
        patch.businessHours ?? {},
      );
      // The defaults, stated: not a change (absent holidays = all of them; no closed days).
      if (!business.closedHolidays && patch.closedHolidays?.length === CLOSING_HOLIDAYS.length)
        delete patch.closedHolidays;
      if (!business.closedDates && patch.closedDates?.length === 0) delete patch.closedDates;
      // The form lists services in its own order (the site's first): the same set is no change.
      if (patch.services && sameServices(patch.services, business.services)) delete patch.services;
      const { change } = await storeCall(
        () =>
          applyListingChange(
            call.store,
            {
              businessId: business.id,
              current: business,
              actor: { kind: "owner", email: session.email },
              summary: "Profile and hours",
              patch,
            },
            call.now(),
            purge,
          ),
        { step: "save" },
      );
      console.info(`[owner] profile ${business.id}: ${change ? `change ${change.id}` : "no change"}`);
      return seeOwnerPage(PROFILE_ROUTE, change ? PROFILE_SAVED : PROFILE_UNCHANGED);
    },
  );
}
