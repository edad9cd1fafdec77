// @vitest-environment happy-dom
/**
 * The dialogs island as the quote dialog (src/islands/LeadDialogs.tsx with kind "quote":
 * QuoteDialogBody, LeadForm, createLeadSender, the Toaster). The `<dialog>` frame is
 * LeadDialog.astro's markup, opened with showModal(); what the browser does with it (Invoker
 * Commands, inertness, Escape, focus return) stays in tests/e2e/leads.spec.ts.
 */
import { act, render, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { beforeEach, describe, expect, it } from "vitest";
import LeadDialogs from "../../../src/islands/LeadDialogs.tsx";
import { estimate } from "../../../src/lib/estimate.ts";
import {
  DANGER_FIRST,
  EMERGENCY_CONFIRMATION,
  HOTLINE,
  QUOTE_CONFIRMATION,
  QUOTE_TOASTS,
  RECEIPT_COPY,
  quotePromises,
} from "../../../src/lib/forms/copy.ts";
import { QUOTE_FORM } from "../../../src/lib/forms/fields.ts";
import { HELD_SUBMIT, HYDRATED } from "../../../src/lib/dialogs.ts";
import { MESSAGES } from "../../../src/lib/schemas/forms.ts";
import { SITE } from "../../../src/lib/site.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import { description, dialogFrame, isInvalid, theToast, toasts } from "../../helpers/islands.ts";
import { ARRIVAL_PROMISE, DAY_PROMISE, RECEIPT } from "../../helpers/receipts.ts";

const contact = { name: "Jordan Rivera", email: "jordan@example.com", phone: "(512) 555-0199" };
const ADDRESS = "1200 Barton Springs Rd, Austin, TX";

let api: FetchMock;
let user: UserEvent;

beforeEach(() => {
  api = mockFetch();
  user = userEvent.setup();
  history.replaceState(null, "", "/services/emergency");
});

function open(preset: Record<string, string> = {}) {
  const frame = dialogFrame("quote-dialog");
  render(<LeadDialogs kind="quote" preset={preset} source="/services/emergency" />, { container: frame.container });
  return { ...frame, form: within(frame.dialog) };
}

type Form = ReturnType<typeof open>["form"];

async function fillValid(form: Form, service = "tree-removal", urgency = "emergency") {
  await user.type(form.getByLabelText(/^Full Name/), contact.name);
  await user.type(form.getByLabelText(/^Email/), contact.email);
  await user.type(form.getByLabelText(/^Phone/), contact.phone);
  await user.type(form.getByLabelText(/^Property Address/), ADDRESS);
  await user.selectOptions(form.getByLabelText(/^Service Needed/), service);
  await user.selectOptions(form.getByLabelText(/^How Soon\?/), urgency);
}

const submit = (form: Form) => user.click(form.getByRole("button", { name: QUOTE_FORM.submit }));

/** The destructive toast with the quote's failure words, and the form still there with its values. */
async function expectFailureKeptForm(form: Form) {
  await waitFor(() => expect(theToast().textContent).toContain(QUOTE_TOASTS.failure.description));
  expect(theToast().textContent).toContain(QUOTE_TOASTS.failure.title);
  expect(theToast().dataset.variant).toBe("destructive");
  expect(form.getByRole("heading", { name: QUOTE_FORM.title })).toBeTruthy();
  expect((form.getByLabelText(/^Full Name/) as HTMLInputElement).value).toBe(contact.name);
  expect((form.getByLabelText(/^Property Address/) as HTMLInputElement).value).toBe(ADDRESS);
  // The toast and the button's label are separate renders: wait for the form to settle too.
  await waitFor(() =>
    expect((form.getByRole("button", { name: QUOTE_FORM.submit }) as HTMLButtonElement).disabled).toBe(false),
  );
}

describe("quote dialog: errors", () => {
  it("an empty submit shows the spec's messages, focuses the first invalid field and sends nothing", async () => {
    const { form } = open();
    await submit(form);
    for (const field of ["name", "email", "phone", "address", "serviceType", "urgency"] as const) {
      expect(form.getByText(MESSAGES[field], { exact: true })).toBeTruthy();
    }
    const name = form.getByLabelText(/^Full Name/);
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(isInvalid(name)).toBe(true);
    expect(description(name)).toBe(MESSAGES.name);
    // Optional tree details are never flagged.
    expect(isInvalid(form.getByLabelText("Approximate Height"))).toBe(false);
    expect(api.calls).toHaveLength(0);

    // Fixing a field clears its message; the others stay until the next submit.
    await user.type(name, "Jo");
    expect(form.queryByText(MESSAGES.name, { exact: true })).toBeNull();
    expect(isInvalid(name)).toBe(false);
    expect(form.getByText(MESSAGES.email, { exact: true })).toBeTruthy();
  });

  it("a 400's field messages show inline, focus the field and toast the failure", async () => {
    api.on(
      "POST",
      "/api/quote",
      reply.json(400, { error: "Please correct the highlighted fields.", fields: { address: MESSAGES.address } }),
    );
    const { form } = open();
    await fillValid(form, "stump-grinding", "not-urgent");
    await submit(form);
    const address = form.getByLabelText(/^Property Address/);
    await waitFor(() => expect(form.getByText(MESSAGES.address, { exact: true })).toBeTruthy());
    await waitFor(() => expect(document.activeElement).toBe(address));
    expect(isInvalid(address)).toBe(true);
    expect(description(address)).toBe(MESSAGES.address);
    expect(theToast().textContent).toContain(QUOTE_TOASTS.failure.description);
  });

  it("a 400 without readable fields toasts the failure and marks nothing", async () => {
    api.on("POST", "/api/quote", reply.malformed(400));
    const { form } = open();
    await fillValid(form);
    await submit(form);
    await expectFailureKeptForm(form);
    expect(form.queryAllByRole("textbox").filter(isInvalid)).toEqual([]);
  });

  it("a 500 keeps the form and its values; a retry of the same payload reuses the Idempotency-Key", async () => {
    api.on("POST", "/api/quote", reply.json(500, { error: "boom" }));
    const { form } = open();
    await fillValid(form);
    await submit(form);
    await expectFailureKeptForm(form);

    await submit(form);
    await waitFor(() => expect(api.calls).toHaveLength(2));
    const [first, second] = api.calls;
    expect(first!.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.headers.get("idempotency-key")).toBe(first!.headers.get("idempotency-key"));
    // Still one notification on screen.
    await waitFor(() => expect(toasts()).toHaveLength(1));

    // A changed payload is a new attempt, with a new key.
    await user.type(form.getByLabelText("Approximate Height"), "40 ft");
    await submit(form);
    await waitFor(() => expect(api.calls).toHaveLength(3));
    expect(api.calls[2]!.headers.get("idempotency-key")).not.toBe(first!.headers.get("idempotency-key"));
  });

  it.each([
    [
      "409 (key reused with other details)",
      reply.json(409, { error: "This request was already sent with other details" }),
    ],
    ["413", reply.json(413, { error: "Too large" })],
    ["415", reply.json(415, { error: "Unsupported content type" })],
    ["429 with Retry-After", reply.json(429, { error: "Too many requests" }, { "retry-after": "30" })],
    ["503", reply.json(503, { error: "down" })],
    ["a network failure", reply.networkError()],
    ["an aborted request", reply.aborted()],
  ])("%s keeps the form and toasts the failure", async (_, answer) => {
    api.on("POST", "/api/quote", answer);
    const { form, dialog } = open();
    await fillValid(form);
    await submit(form);
    await expectFailureKeptForm(form);
    expect(dialog.open).toBe(true);
    expect(form.queryByTestId("quote-estimate")).toBeNull();
  });

  it("the toast's Close dismisses it and leaves the dialog open", async () => {
    api.on("POST", "/api/quote", reply.json(429, { error: "slow down" }, { "retry-after": "10" }));
    const { form, dialog } = open();
    await fillValid(form);
    await submit(form);
    await waitFor(() => expect(toasts()).toHaveLength(1));
    await user.click(within(theToast()).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(toasts()).toHaveLength(0));
    expect(dialog.open).toBe(true);
  });
});

describe("quote dialog: success", () => {
  it("posts the spec payload, is busy meanwhile, then confirms an emergency: the hotline first, never 24 hours", async () => {
    api.on(
      "POST",
      "/api/quote",
      reply.json(201, { ok: true, id: "ld_1", estimatedCost: "$900 - $4,500", ...RECEIPT, urgency: "emergency" }),
    );
    const { form, dialog } = open({ serviceType: "emergency", urgency: "emergency" });
    // The emergency page's preselection.
    expect((form.getByLabelText(/^Service Needed/) as HTMLSelectElement).value).toBe("emergency");
    expect((form.getByLabelText(/^How Soon\?/) as HTMLSelectElement).value).toBe("emergency");
    expect(dialog.getAttribute("aria-labelledby")).toBe("quote-dialog-title");
    expect(document.getElementById("quote-dialog-title")!.textContent).toBe(QUOTE_FORM.title);

    await fillValid(form);
    await user.type(form.getByLabelText("Approximate Height"), "40 ft");
    const release = api.hold();
    await submit(form);
    const pending = form.getByRole("button", { name: QUOTE_FORM.pending }) as HTMLButtonElement;
    expect(pending.disabled).toBe(true);
    expect(dialog.querySelector("form")!.getAttribute("aria-busy")).toBe("true");
    // A second submit while pending (Enter in a field, say) sends nothing more.
    await act(async () => dialog.querySelector("form")!.requestSubmit());
    await act(async () => release());

    const expected = estimate("tree-removal", "emergency").text;
    expect(expected).toBe("$900 - $4,500");
    expect((await form.findByTestId("quote-estimate")).textContent).toBe(expected);
    expect(api.calls).toHaveLength(1);
    const call = api.calls[0]!;
    expect(call.headers.get("content-type")).toBe("application/json");
    expect(call.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
    expect(call.json()).toEqual({
      name: contact.name,
      email: contact.email,
      phone: contact.phone,
      address: ADDRESS,
      serviceType: "tree-removal",
      urgency: "emergency",
      treeDetails: { height: "40 ft" },
      estimatedCost: expected,
      _started: expect.stringMatching(/^\d{13}$/),
      _source: "/services/emergency",
    });

    // The confirmation view renames the dialog (its title id); an emergency's description is the 911 line.
    expect(document.getElementById("quote-dialog-title")!.textContent).toBe(QUOTE_CONFIRMATION.title);
    expect(document.getElementById("quote-dialog-description")!.textContent).toBe(DANGER_FIRST.hurt);
    expect(QUOTE_TOASTS.emergency.description).toBe(DANGER_FIRST.hurt);
    expect(dialog.textContent).toContain(QUOTE_CONFIRMATION.variesNote);
    for (const promise of quotePromises("emergency")) expect(dialog.textContent).toContain(promise);
    expect(dialog.textContent).toContain(EMERGENCY_CONFIRMATION.lines);
    const links = form.getAllByRole("link");
    expect(links[0]!.textContent).toBe(HOTLINE.text);
    expect(links[0]!.getAttribute("href")).toBe(SITE.phoneHref);
    const text = dialog.textContent!;
    expect(text.indexOf(DANGER_FIRST.hurt)).toBeLessThan(text.indexOf(DANGER_FIRST.lines));
    expect(text.indexOf(DANGER_FIRST.lines)).toBeLessThan(text.indexOf(SITE.phone));
    expect(text.indexOf(SITE.phone)).toBeLessThan(text.indexOf(RECEIPT.reference));
    expect(text.indexOf(SITE.phone)).toBeLessThan(text.indexOf(expected));
    expect(text).not.toMatch(DAY_PROMISE);
    expect(text).not.toMatch(ARRIVAL_PROMISE);
    expect(form.getByText(RECEIPT.reference).tagName).toBe("STRONG");
    expect(form.getByRole("link", { name: RECEIPT_COPY.track }).getAttribute("href")).toBe(RECEIPT.statusUrl);
    // An older reply without an offer summary says nothing about who has it rather than guess.
    expect(form.queryByTestId("offers-now")).toBeNull();
    await waitFor(() => expect(theToast().textContent).toContain(QUOTE_TOASTS.emergency.title));
    expect(theToast().textContent).toContain(QUOTE_TOASTS.emergency.description);
    expect(theToast().textContent).not.toMatch(DAY_PROMISE);
    expect(theToast().textContent).not.toMatch(ARRIVAL_PROMISE);
    expect(theToast().dataset.variant).toBe("default");
  });

  it("a Miami emergency offered to 24/7 crews says so, lists them with their own numbers, and stays until Done", async () => {
    const offers = {
      offered: 3,
      near: "33131",
      aroundTheClock: true,
      answerMinutes: 10,
      answerBy: "2026-11-28T20:10:00.000Z",
      timeZone: "America/New_York",
    };
    const matches = [
      {
        id: "m1",
        name: "Brickell Tree Pros",
        slug: "brickell-tree-pros",
        phone: "(305) 555-0101",
        rating: "4.8",
        reviewCount: 20,
        distanceMiles: 0.8,
      },
      {
        id: "m2",
        name: "Coral Canopy",
        slug: "coral-canopy",
        phone: null,
        rating: 4.5,
        reviewCount: 0,
        distanceMiles: 2.1,
      },
      { name: "not a match" },
    ];
    api.on(
      "POST",
      "/api/quote",
      reply.json(201, { ok: true, id: "ld_m", ...RECEIPT, urgency: "emergency", offers, matches }),
    );
    const { form, dialog } = open({ serviceType: "tree-removal", urgency: "emergency" });
    await fillValid(form);
    await submit(form);
    const now = await form.findByTestId("offers-now");
    expect(now.textContent).toBe(
      "Offered to 3 crews near 33131 that take emergencies now; each has 10 minutes to answer.",
    );
    const text = dialog.textContent!;
    expect(text.indexOf(DANGER_FIRST.lines)).toBeLessThan(text.indexOf(now.textContent!));
    expect(text.indexOf(now.textContent!)).toBeLessThan(text.indexOf(RECEIPT.reference));
    const offered = within(form.getByRole("region", { name: QUOTE_CONFIRMATION.offeredTo }));
    expect(offered.getAllByRole("listitem")).toHaveLength(2);
    expect(offered.getByRole("link", { name: "Brickell Tree Pros" }).getAttribute("href")).toBe(
      "/directory/brickell-tree-pros",
    );
    expect(offered.getByRole("link", { name: "Call Brickell Tree Pros at (305) 555-0101" }).getAttribute("href")).toBe(
      "tel:+13055550101",
    );
    expect(text).not.toMatch(ARRIVAL_PROMISE);
    // The receipt stays until the visitor closes it, whatever the toast does.
    await waitFor(() => expect(toasts()).toHaveLength(1));
    await user.click(within(theToast()).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(toasts()).toHaveLength(0));
    expect(form.getByRole("link", { name: RECEIPT_COPY.track })).toBeTruthy();
    expect(dialog.open).toBe(true);
  });

  it("a routine quote's offers give the deadline in the job's zone; one sent straight to our team says why", async () => {
    api.on(
      "POST",
      "/api/quote",
      reply.json(201, {
        ok: true,
        id: "ld_c",
        ...RECEIPT,
        offers: {
          offered: 1,
          near: "60614",
          aroundTheClock: false,
          answerBy: "2026-11-30T17:00:00.000Z",
          timeZone: "America/Chicago",
        },
      }),
    );
    const first = open();
    await fillValid(first.form, "stump-grinding", "not-urgent");
    await submit(first.form);
    expect((await first.form.findByTestId("offers-now")).textContent).toBe(
      "Offered to 1 pro near 60614; it has until Mon, Nov 30, 11:00 AM CST to answer.",
    );
    for (const promise of QUOTE_CONFIRMATION.promises) expect(first.dialog.textContent).toContain(promise);
    expect(first.dialog.textContent).toContain(`${QUOTE_CONFIRMATION.callPrompt} ${SITE.phone}`);
  });

  it("a quote whose address we could not place says so, and who has it", async () => {
    api.on(
      "POST",
      "/api/quote",
      reply.json(201, {
        ok: true,
        id: "ld_n",
        ...RECEIPT,
        offers: { offered: 0, near: null, aroundTheClock: false, timeZone: "America/Chicago", toOperator: "no-place" },
      }),
    );
    const { form } = open();
    await fillValid(form, "stump-grinding", "not-urgent");
    await submit(form);
    expect((await form.findByTestId("offers-now")).textContent).toBe(
      "We couldn't place that address on our map: Treeline's team has your request and will contact you within 24 hours.",
    );
  });

  it("a routine quote says the spec's words and shows the reference and its status link", async () => {
    api.on("POST", "/api/quote", reply.json(201, { ok: true, id: "ld_9", estimatedCost: "$150 - $500", ...RECEIPT }));
    const { form, dialog } = open();
    await fillValid(form, "stump-grinding", "not-urgent");
    // The sheet was scrolled down to the submit button; the confirmation opens at its heading.
    const scrolls: unknown[] = [];
    (dialog as HTMLElement).scrollTo = ((options: unknown) => void scrolls.push(options)) as never;
    await submit(form);
    await form.findByTestId("quote-estimate");
    expect(scrolls.at(-1)).toEqual({ top: 0 });
    expect(document.getElementById("quote-dialog-description")!.textContent).toBe(QUOTE_TOASTS.success.description);
    for (const promise of QUOTE_CONFIRMATION.promises) expect(dialog.textContent).toContain(promise);
    expect(form.queryByTestId("emergency-call")).toBeNull();
    expect(form.getByRole("link", { name: SITE.phone }).getAttribute("href")).toBe(SITE.phoneHref);
    const receipt = form.getByTestId("lead-receipt");
    expect(receipt.textContent).toContain(`${RECEIPT_COPY.referenceLabel} ${RECEIPT.reference}`);
    expect(within(receipt).getByText(RECEIPT.reference).tagName).toBe("STRONG");
    expect(within(receipt).getByRole("link", { name: RECEIPT_COPY.track }).getAttribute("href")).toBe(
      RECEIPT.statusUrl,
    );
    expect(receipt.textContent).toContain(RECEIPT_COPY.willEmail);
    await waitFor(() => expect(theToast().textContent).toContain(QUOTE_TOASTS.success.description));
  });

  it("an emergency service is an emergency whatever the urgency, even when the reply says routine", async () => {
    api.on(
      "POST",
      "/api/quote",
      reply.json(201, {
        ok: true,
        id: "ld_8",
        ...RECEIPT,
        urgency: "routine",
        offers: { offered: 2, near: "Miami, FL", aroundTheClock: true, answerMinutes: 10, timeZone: "Mars/Olympus" },
      }),
    );
    const { form, dialog } = open();
    await fillValid(form, "emergency", "not-urgent");
    await submit(form);
    await form.findByTestId("emergency-call");
    expect(dialog.textContent).not.toMatch(DAY_PROMISE);
    // A zone the browser cannot read makes the summary unreadable: nothing is said rather than a wrong clock.
    expect(form.queryByTestId("offers-now")).toBeNull();
    await waitFor(() => expect(theToast().textContent).toContain(QUOTE_TOASTS.emergency.description));
  });

  it("sends an empty treeDetails when none are given, and a 2xx with an unreadable body still confirms", async () => {
    api.on("POST", "/api/quote", reply.malformed(201));
    const { form } = open();
    await fillValid(form, "stump-grinding", "not-urgent");
    await submit(form);
    expect((await form.findByTestId("quote-estimate")).textContent).toBe(estimate("stump-grinding", "not-urgent").text);
    expect(api.calls[0]!.json()).toMatchObject({ treeDetails: {} });
  });

  it("sends when the page was shown as _started, not a later stamp, so a quick person is not taken for a script", async () => {
    api.on("POST", "/api/quote", reply.json(201, { ok: true, id: "ld_2" }));
    const { form, dialog } = open();
    // A stamp from the dialog's opening (or the island's mount) is later than the page's load.
    dialog.querySelector<HTMLInputElement>('input[name="_started"]')!.value = String(Date.now());
    await fillValid(form);
    await submit(form);
    await form.findByTestId("quote-estimate");
    expect(api.calls[0]!.json()).toMatchObject({ _started: String(Math.round(performance.timeOrigin)) });
  });

  it("Done closes the dialog and the next opening starts from a fresh form", async () => {
    api.on("POST", "/api/quote", reply.json(201, { ok: true, id: "ld_3" }));
    const { form, dialog } = open();
    await fillValid(form, "stump-grinding", "not-urgent");
    await submit(form);
    await form.findByTestId("quote-estimate");
    await user.click(form.getByRole("button", { name: "Done" }));
    expect(dialog.open).toBe(false);
    await act(async () => dialog.showModal());
    expect(document.getElementById("quote-dialog-title")!.textContent).toBe(QUOTE_FORM.title);
    expect((form.getByLabelText(/^Full Name/) as HTMLInputElement).value).toBe("");
  });
});

describe("quote dialog: hydration", () => {
  it("keeps what was typed into the prebuilt form and sends it; the form is marked as taken over", async () => {
    api.on("POST", "/api/quote", reply.json(201, { ok: true, id: "ld_4" }));
    const props = {
      kind: "quote",
      preset: { serviceType: "tree-trimming" },
      source: "/services/tree-trimming",
    } as const;
    const frame = dialogFrame("quote-dialog");
    frame.container.innerHTML = renderToString(<LeadDialogs {...props} />);
    const server = frame.container.querySelector("form")!;
    expect(server.hasAttribute(HYDRATED)).toBe(false);
    // The visitor types before the island is in (no React listens yet).
    (server.elements.namedItem("name") as HTMLInputElement).value = contact.name;
    (server.elements.namedItem("email") as HTMLInputElement).value = contact.email;
    (server.elements.namedItem("phone") as HTMLInputElement).value = contact.phone;
    (server.elements.namedItem("address") as HTMLInputElement).value = ADDRESS;
    (server.elements.namedItem("urgency") as HTMLSelectElement).value = "within-week";
    render(<LeadDialogs {...props} />, { container: frame.container, hydrate: true });

    const form = within(frame.dialog);
    expect(frame.container.querySelector("form")!.hasAttribute(HYDRATED)).toBe(true);
    expect((form.getByLabelText(/^Full Name/) as HTMLInputElement).value).toBe(contact.name);
    expect((form.getByLabelText(/^Service Needed/) as HTMLSelectElement).value).toBe("tree-trimming");
    expect((form.getByLabelText(/^How Soon\?/) as HTMLSelectElement).value).toBe("within-week");
    await submit(form);
    await form.findByTestId("quote-estimate");
    expect(api.calls[0]!.json()).toMatchObject({
      name: contact.name,
      address: ADDRESS,
      serviceType: "tree-trimming",
      urgency: "within-week",
    });
  });

  it("a submit the page held before hydration is sent by the island once it is in", async () => {
    api.on("POST", "/api/quote", reply.json(201, { ok: true, id: "ld_5" }));
    const props = {
      kind: "quote",
      preset: { serviceType: "tree-removal", urgency: "emergency" },
      source: "/",
    } as const;
    const frame = dialogFrame("quote-dialog");
    frame.container.innerHTML = renderToString(<LeadDialogs {...props} />);
    const server = frame.container.querySelector("form")!;
    for (const [name, value] of Object.entries({ ...contact, address: ADDRESS }))
      (server.elements.namedItem(name) as HTMLInputElement).value = value;
    server.setAttribute(HELD_SUBMIT, "");
    render(<LeadDialogs {...props} />, { container: frame.container, hydrate: true });
    expect(await within(frame.dialog).findByTestId("quote-estimate")).toBeTruthy();
    expect(api.calls).toHaveLength(1);
    expect(server.hasAttribute(HELD_SUBMIT)).toBe(false);
  });
});
