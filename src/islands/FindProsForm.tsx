/**
 * "Get Multiple Quotes Fast" on /find-a-tree-service, progressively enhanced.
 *
 * The server-rendered form drawn from FIND_PROS_FORM is the no-JavaScript form (it posts to
 * /api/find-pros and the server answers an HTML page). When this island hydrates it (an
 * Island with when="visible", as it nears the viewport), the uncontrolled fields keep
 * whatever was typed or chosen; from then on it validates with the server's schema, makes a
 * camera photo small enough to send (src/lib/photo-resize.ts), uploads via fetch and shows the
 * matched pros in place.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { FIND_PROS_FORM } from "../lib/forms/fields.ts";
import type { Receipt } from "../lib/receipt.ts";
import type { OfferSummary } from "../lib/received.ts";
import { FORM_CLASSES, fieldId, HONEYPOT_FIELD, SOURCE_FIELD, STARTED_FIELD } from "../lib/forms/markup.ts";
import type { FieldErrors } from "../lib/schemas/forms.ts";
import { showToast } from "../lib/stores/dialogs.ts";
import { ensureToaster } from "./leads/Toaster.tsx";
import { Confirmation } from "./find-pros/Confirmation.tsx";
import type { StormNotice } from "../lib/storm.ts";
import { Field } from "./find-pros/Field.tsx";
import { newIdempotencyKey, submitFindPros, type Match } from "./find-pros/submit.ts";
import { chosenFile, firstInvalid, PHOTO_TOO_LARGE, validateFindPros } from "./find-pros/validate.ts";
import { preparePhoto } from "../lib/photo-resize.ts";

const FORM = FIND_PROS_FORM;
/** Fields that take the whole row; the rest pair up two per row from the sm breakpoint. */
const WIDE = new Set(["location", "description", "name"]);

interface Props {
  /** Page path sent as `_source` so the lead records where it came from. */
  source: string;
}

type View =
  | { kind: "form" }
  | {
      kind: "done";
      matches: Match[];
      message?: string;
      receipt: Receipt;
      offers?: OfferSummary;
      storm?: StormNotice;
      name: string;
      location: string;
    };

const NETWORK_MESSAGE = "We couldn't reach our server. Check your connection and try again.";
const FAILED_MESSAGE = "Failed to submit your request. Please try again.";

export default function FindProsForm({ source }: Props) {
  const [view, setView] = useState<View>({ kind: "form" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [banner, setBanner] = useState<string>();
  const [pending, setPending] = useState(false);
  const [started, setStarted] = useState("");
  // Server-rendered, this is the no-JS form; `novalidate` marks it as taken over.
  const [enhanced, setEnhanced] = useState(false);
  const attempted = useRef(false);
  // A ref, not the pending state, so a double click before the re-render cannot send twice.
  const inFlight = useRef(false);
  const key = useRef("");
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    ensureToaster();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- hydration: take over the server's no-JS form
    setEnhanced(true);
    // The page was "shown" when it loaded, not when this island hydrated.
    setStarted(String(Math.round(performance.timeOrigin || Date.now())));
    key.current = newIdempotencyKey();
  }, []);

  const focusField = (name: string | undefined) => {
    if (name) document.getElementById(fieldId(FORM, name))?.focus();
  };

  // After the first attempt, errors follow the visitor's corrections as they type.
  // Any edit makes it a different request, so it gets a new idempotency key.
  const onChange = useCallback(() => {
    key.current = newIdempotencyKey();
    if (attempted.current && formRef.current) setErrors(validateFindPros(new FormData(formRef.current)));
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (inFlight.current) return;
    const form = event.currentTarget;
    const data = new FormData(form);
    attempted.current = true;
    setBanner(undefined);
    const found = validateFindPros(data);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusField(firstInvalid(found));
      return;
    }
    inFlight.current = true;
    setPending(true);
    const photo = chosenFile(data.get("photo"));
    // An empty file part would make the endpoint inspect a zero-byte "photo".
    if (!photo) data.delete("photo");
    else {
      // A camera photo is larger than a function may receive: sent smaller, or not at all.
      const prepared = await preparePhoto(photo);
      if (prepared.kind === "too-large") {
        inFlight.current = false;
        setPending(false);
        setErrors({ photo: PHOTO_TOO_LARGE });
        focusField("photo");
        return;
      }
      data.set("photo", prepared.file);
    }
    const outcome = await submitFindPros(data, key.current);
    inFlight.current = false;
    setPending(false);

    if (outcome.kind === "sent") {
      key.current = newIdempotencyKey();
      attempted.current = false;
      setErrors({});
      setView({
        kind: "done",
        matches: outcome.matches,
        message: outcome.message,
        receipt: outcome.receipt,
        offers: outcome.offers,
        storm: outcome.storm,
        name: String(data.get("name") ?? ""),
        location: String(data.get("location") ?? ""),
      });
      return;
    }
    if (outcome.kind === "invalid") {
      setErrors(outcome.fields);
      const first = firstInvalid(outcome.fields);
      if (first) focusField(first);
      else setBanner(outcome.message ?? FAILED_MESSAGE);
      return;
    }
    // Only the photo can make the body too large; a wrong image type comes back as a 400 above.
    if (outcome.status === 413) {
      setErrors({ photo: PHOTO_TOO_LARGE });
      focusField("photo");
      return;
    }
    const message = outcome.message ?? (outcome.status === 0 ? NETWORK_MESSAGE : FAILED_MESSAGE);
    setBanner(message);
    // The inline message stays with the form; the toast is the site-wide echo of it.
    showToast({ title: "Error", description: message, variant: "destructive" });
  }

  const reset = () => {
    attempted.current = false;
    key.current = newIdempotencyKey();
    setErrors({});
    setBanner(undefined);
    setView({ kind: "form" });
  };

  if (view.kind === "done")
    return (
      <Confirmation
        matches={view.matches}
        message={view.message}
        receipt={view.receipt}
        offers={view.offers}
        storm={view.storm}
        name={view.name}
        location={view.location}
        onReset={reset}
      />
    );

  const errorCount = Object.keys(errors).length;
  return (
    <form
      ref={formRef}
      action={FORM.action}
      method="post"
      encType={FORM.enctype}
      noValidate={enhanced}
      onSubmit={onSubmit}
      onChange={onChange}
      id={`${FORM.name}-form`}
      aria-busy={pending || undefined}
      aria-label={FORM.title}
    >
      <input type="hidden" name={SOURCE_FIELD} value={source} />
      <input type="hidden" name={STARTED_FIELD} value={started} />
      {/* The lead forms' trap: visually hidden, skipped by keyboard and screen readers. */}
      <div className={FORM_CLASSES.honeypot} aria-hidden="true">
        <label htmlFor={fieldId(FORM, HONEYPOT_FIELD)}>Leave this field empty</label>
        <input
          type="text"
          id={fieldId(FORM, HONEYPOT_FIELD)}
          name={HONEYPOT_FIELD}
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        {FORM.fields.map((field) => (
          <div key={field.name} className={WIDE.has(field.name) ? "sm:col-span-2" : undefined}>
            <Field field={field} form={FORM} error={errors[field.name]} />
          </div>
        ))}
      </div>

      {/* Screen readers hear the count once; each message is also tied to its field. */}
      <p className="sr-only" aria-live="polite">
        {errorCount > 0 ? `${errorCount} ${errorCount === 1 ? "field needs" : "fields need"} attention.` : ""}
      </p>
      {banner && (
        <p
          role="alert"
          className="mt-5 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
        >
          {banner}
        </p>
      )}

      <button
        type="submit"
        className={`${FORM_CLASSES.submit} mt-6`}
        disabled={pending}
        aria-disabled={pending || undefined}
      >
        {pending ? FORM.pending : FORM.submit}
      </button>
      <p className="mt-3 text-center text-sm text-slate-500">
        Free and no obligation. We only use your details to arrange your quotes (
        <a href="/privacy" className="link">
          privacy policy
        </a>
        ).
      </p>
    </form>
  );
}
