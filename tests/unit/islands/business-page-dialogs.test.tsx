// @vitest-environment happy-dom
/**
 * The dialogs island on a business page: Book Service (BookingDialogBody) and Write Review
 * (ReviewDialogBody), and what a posted review does to the page's server-rendered reviews
 * and header rating (live-reviews.tsx, loaded after the POST, following the reviews store).
 */
import { act, render, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import LeadDialogs from "../../../src/islands/LeadDialogs.tsx";
import { RatingSummary } from "../../../src/islands/directory/detail/BusinessView.tsx";
import ReviewsPanel, { NO_REVIEWS } from "../../../src/islands/directory/detail/ReviewsPanel.tsx";
import { HELD_SUBMIT, ISLAND_SENDS } from "../../../src/lib/dialogs.ts";
import { $bookingReceipt } from "../../../src/islands/leads/ReceiptPanel.tsx";
import {
  BOOKING_CONFIRMATION,
  BOOKING_TOASTS,
  DANGER_FIRST,
  HOTLINE,
  RECEIPT_COPY,
  RECEIPT_TOAST_MS,
  REVIEW_TOASTS,
} from "../../../src/lib/forms/copy.ts";
import { BOOKING_FORM } from "../../../src/lib/forms/fields.ts";
import { BOOKING_MESSAGES } from "../../../src/lib/schemas/booking.ts";
import { REVIEW_MESSAGES, type PublicReview } from "../../../src/lib/schemas/review.ts";
import { SITE } from "../../../src/lib/site.ts";
import { $toasts, type BusinessPreset } from "../../../src/lib/stores/dialogs.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import { description, dialogFrame, isInvalid, theToast, toasts } from "../../helpers/islands.ts";
import { ARRIVAL_PROMISE, DAY_PROMISE, RECEIPT } from "../../helpers/receipts.ts";

const business = (id: string): BusinessPreset => ({
  businessId: id,
  businessName: "Balcones Canopy Works",
  businessSlug: "balcones-canopy-works-austin",
  services: ["Tree Trimming", "Tree Pruning", "Tree Removal"],
});

let api: FetchMock;
let user: UserEvent;

beforeEach(() => {
  api = mockFetch();
  user = userEvent.setup({ delay: null });
  history.replaceState(null, "", "/directory/balcones-canopy-works-austin");
  $bookingReceipt.set(null);
});

/** The booking's receipt the page keeps on screen after the dialog closed. */
const receiptPanel = () => document.querySelector<HTMLElement>("[data-testid=booking-receipt]");

function open(kind: "booking" | "review", preset: BusinessPreset) {
  const frame = dialogFrame(`${kind}-dialog`);
  render(<LeadDialogs kind={kind} business={preset} source={location.pathname} />, { container: frame.container });
  return { ...frame, form: within(frame.dialog) };
}

type Form = ReturnType<typeof open>["form"];

const title = (kind: string) => document.getElementById(`${kind}-dialog-title`)!.textContent;

describe("booking dialog", () => {
  async function fillContact(form: Form) {
    await user.type(form.getByLabelText(/^Full Name/), "Jordan Rivera");
    await user.type(form.getByLabelText(/^Email/), "jordan@example.com");
    await user.type(form.getByLabelText(/^Phone/), "(512) 555-0199");
  }
  const send = (form: Form) => user.click(form.getByRole("button", { name: BOOKING_FORM.submit }));

  it("an empty submit flags the name first and sends nothing", async () => {
    const { form } = open("booking", business("biz-001"));
    await send(form);
    const name = form.getByLabelText(/^Full Name/);
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(isInvalid(name)).toBe(true);
    expect(description(name)).toBe(BOOKING_MESSAGES.customerName);
    expect(description(form.getByLabelText(/^Email/))).toBe(BOOKING_MESSAGES.customerEmail);
    expect(description(form.getByLabelText(/^Phone/))).toBe(BOOKING_MESSAGES.customerPhone);
    expect(api.calls).toHaveLength(0);
  });

  it("a date in the past is refused in the browser with the schema's message", async () => {
    const { form } = open("booking", business("biz-001"));
    await fillContact(form);
    await user.type(form.getByLabelText("Preferred Date"), "2000-01-01");
    await send(form);
    const date = form.getByLabelText("Preferred Date");
    await waitFor(() => expect(document.activeElement).toBe(date));
    expect(description(date)).toBe(BOOKING_MESSAGES.pastDate);
    expect(api.calls).toHaveLength(0);
  });

  it.each([
    ["a 500", reply.json(500, { error: "boom" })],
    ["a 503", reply.json(503, { error: "down" })],
    ["a 429 with Retry-After", reply.json(429, { error: "Too many" }, { "retry-after": "20" })],
    ["a network failure", reply.networkError()],
  ])("%s keeps the dialog open with what was typed and toasts the failure", async (_, answer) => {
    api.on("POST", "/api/booking-request", answer);
    const { form, dialog } = open("booking", business("biz-001"));
    await fillContact(form);
    await send(form);
    await waitFor(() => expect(theToast().textContent).toContain(BOOKING_TOASTS.failure.description));
    expect(theToast().dataset.variant).toBe("destructive");
    expect(dialog.open).toBe(true);
    expect((form.getByLabelText(/^Full Name/) as HTMLInputElement).value).toBe("Jordan Rivera");
  });

  it("a 400 puts the function's message on the service", async () => {
    api.on(
      "POST",
      "/api/booking-request",
      reply.json(400, {
        error: "Please correct the highlighted fields.",
        fields: { serviceType: BOOKING_MESSAGES.serviceType },
      }),
    );
    const { form } = open("booking", business("biz-001"));
    await fillContact(form);
    await user.selectOptions(form.getByLabelText("Service Type"), "Tree Pruning");
    await send(form);
    const service = form.getByLabelText("Service Type");
    await waitFor(() => expect(description(service)).toBe(BOOKING_MESSAGES.serviceType));
    await waitFor(() => expect(document.activeElement).toBe(service));
  });

  it("offers the business's services, sends the spec payload, closes and toasts; the next opening is fresh", async () => {
    api.on("POST", "/api/booking-request", reply.json(201, { ok: true, id: "ld_1", businessName: "Balcones" }));
    const preset = business("biz-001");
    const { form, dialog } = open("booking", preset);
    expect(title("booking")).toBe(`Book Service with ${preset.businessName}`);
    const options = within(form.getByLabelText("Service Type")).getAllByRole("option");
    expect(options.slice(1).map((o) => o.textContent)).toEqual(preset.services);
    expect((form.getByLabelText("Urgency") as HTMLSelectElement).value).toBe("normal");

    await fillContact(form);
    await user.selectOptions(form.getByLabelText("Service Type"), preset.services[1]!);
    const release = api.hold();
    await send(form);
    expect((form.getByRole("button", { name: BOOKING_FORM.pending }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => release());

    await waitFor(() => expect(dialog.open).toBe(false));
    await waitFor(() => expect(theToast().textContent).toContain(BOOKING_TOASTS.success.title));
    expect(theToast().textContent).toContain(BOOKING_TOASTS.success.description);
    const body = api.calls[0]!.json();
    expect(body).toMatchObject({
      customerName: "Jordan Rivera",
      customerEmail: "jordan@example.com",
      customerPhone: "(512) 555-0199",
      serviceType: preset.services[1],
      urgency: "normal",
      requestType: "consultation",
      businessId: "biz-001",
      _source: "/directory/balcones-canopy-works-austin",
    });
    expect(body).not.toHaveProperty("preferredDate");
    expect(api.calls[0]!.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);

    await act(async () => dialog.showModal());
    expect((form.getByLabelText(/^Full Name/) as HTMLInputElement).value).toBe("");
  });

  it("the success toast carries the reference and a Track your request link, and stays long enough to read", async () => {
    api.on("POST", "/api/booking-request", reply.json(201, { ok: true, id: "ld_7", businessName: "B", ...RECEIPT }));
    const { form, dialog } = open("booking", business("biz-001"));
    await fillContact(form);
    await send(form);
    await waitFor(() => expect(dialog.open).toBe(false));
    await waitFor(() => expect(theToast().textContent).toContain(BOOKING_TOASTS.success.description));
    expect(theToast().textContent).toContain(`${RECEIPT_COPY.referenceLabel} ${RECEIPT.reference}`);
    expect(within(theToast()).getByText(RECEIPT.reference).tagName).toBe("STRONG");
    const track = within(theToast()).getByRole("link", { name: RECEIPT_COPY.track });
    expect(track.getAttribute("href")).toBe(RECEIPT.statusUrl);
    expect($toasts.get()[0]!.duration).toBe(RECEIPT_TOAST_MS);
  });

  it("keeps the reference and status link on screen after the toast is gone, until the visitor closes them", async () => {
    api.on("POST", "/api/booking-request", reply.json(201, { ok: true, id: "ld_7", businessName: "B", ...RECEIPT }));
    const { form, dialog } = open("booking", business("biz-001"));
    await fillContact(form);
    await send(form);
    await waitFor(() => expect(dialog.open).toBe(false));
    await waitFor(() => expect(receiptPanel()).not.toBeNull());
    const panel = within(receiptPanel()!);
    const heading = panel.getByRole("heading", { name: BOOKING_CONFIRMATION.receiptTitle });
    expect(receiptPanel()!.getAttribute("aria-labelledby")).toBe(heading.id);
    // Focus lands on the receipt, not back on a button behind it.
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(panel.getByText(RECEIPT.reference).tagName).toBe("STRONG");
    expect(panel.getByRole("link", { name: RECEIPT_COPY.track }).getAttribute("href")).toBe(RECEIPT.statusUrl);
    expect(receiptPanel()!.textContent).toContain(`${BOOKING_CONFIRMATION.offeredTo} Balcones Canopy Works.`);
    // No way back to the page it is on.
    expect(panel.queryByRole("link", { name: /^Back to/ })).toBeNull();
    // The toast is the spec's; closing it leaves the receipt.
    await user.click(within(theToast()).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(toasts()).toHaveLength(0));
    expect(receiptPanel()).not.toBeNull();

    // Booking again replaces it; Close removes it.
    await act(async () => dialog.showModal());
    api.on("POST", "/api/booking-request", reply.json(201, { ok: true, ...RECEIPT, reference: "TL-AAAA-BB" }));
    await fillContact(form);
    await send(form);
    await waitFor(() => expect(receiptPanel()!.textContent).toContain("TL-AAAA-BB"));
    expect(document.querySelectorAll("[data-testid=booking-receipt]")).toHaveLength(1);
    await user.click(within(receiptPanel()!).getByRole("button", { name: BOOKING_CONFIRMATION.close }));
    expect(receiptPanel()).toBeNull();
  });

  it("a reply without a reference shows no receipt panel: the toast is all there is", async () => {
    api.on("POST", "/api/booking-request", reply.json(201, { ok: true, id: "ld_9" }));
    const { form, dialog } = open("booking", business("biz-001"));
    await fillContact(form);
    await send(form);
    await waitFor(() => expect(dialog.open).toBe(false));
    await waitFor(() => expect(theToast().textContent).toContain(BOOKING_TOASTS.success.description));
    expect(receiptPanel()).toBeNull();
  });

  it("an emergency booking's toast and receipt lead with the danger and our own line, never 24 hours or an arrival", async () => {
    api.on("POST", "/api/booking-request", reply.json(201, { ok: true, id: "ld_8", ...RECEIPT }));
    const { form, dialog } = open("booking", business("biz-001"));
    await fillContact(form);
    await user.selectOptions(form.getByLabelText("Urgency"), "emergency");
    await send(form);
    await waitFor(() => expect(dialog.open).toBe(false));
    await waitFor(() => expect(theToast().textContent).toContain(BOOKING_TOASTS.emergency.description));
    const text = theToast().textContent!;
    expect(text).not.toMatch(DAY_PROMISE);
    expect(text).not.toMatch(ARRIVAL_PROMISE);
    expect(BOOKING_TOASTS.emergency.description).toBe(DANGER_FIRST.hurt);
    expect(within(theToast()).getByRole("link", { name: HOTLINE.text }).getAttribute("href")).toBe(SITE.phoneHref);
    expect(text.indexOf(DANGER_FIRST.hurt)).toBe(
      text.indexOf(BOOKING_TOASTS.emergency.title) + BOOKING_TOASTS.emergency.title.length,
    );
    expect(within(theToast()).getByRole("link", { name: RECEIPT_COPY.track })).toBeTruthy();

    await waitFor(() => expect(receiptPanel()).not.toBeNull());
    const receipt = receiptPanel()!.textContent!;
    expect(receipt).not.toMatch(DAY_PROMISE);
    expect(receipt).not.toMatch(ARRIVAL_PROMISE);
    expect(receipt.indexOf(DANGER_FIRST.hurt)).toBeLessThan(receipt.indexOf(DANGER_FIRST.lines));
    expect(receipt.indexOf(DANGER_FIRST.lines)).toBeLessThan(receipt.indexOf(HOTLINE.text));
    expect(receipt.indexOf(HOTLINE.text)).toBeLessThan(receipt.indexOf(RECEIPT.reference));
    expect(receipt).toContain(BOOKING_CONFIRMATION.emergencyNext);
    expect(within(receiptPanel()!).getByRole("link", { name: HOTLINE.text }).getAttribute("href")).toBe(SITE.phoneHref);
  });

  it("sends a chosen date", async () => {
    api.on("POST", "/api/booking-request", reply.json(201, { ok: true, id: "ld_2" }));
    const { form, dialog } = open("booking", business("biz-001"));
    await fillContact(form);
    await user.type(form.getByLabelText("Preferred Date"), "2099-05-01");
    await user.selectOptions(form.getByLabelText("Urgency"), "urgent");
    await send(form);
    await waitFor(() => expect(dialog.open).toBe(false));
    expect(api.calls[0]!.json()).toMatchObject({ preferredDate: "2099-05-01", urgency: "urgent" });
  });
});

describe("review dialog", () => {
  const review = (id: string, name: string, rating = 4): PublicReview => ({
    id,
    customerName: name,
    rating,
    title: "",
    reviewText: "",
    serviceType: "",
    isVerified: false,
    createdAt: "2026-03-01T12:00:00.000Z",
  });

  /** The business page around the dialog: its header rating and its reviews (server HTML). */
  function businessPage(id: string, served: PublicReview[], rating = "4.5") {
    const page = document.createElement("div");
    page.dataset.testFrame = "";
    page.innerHTML = renderToStaticMarkup(
      <>
        <RatingSummary business={{ id, rating, reviewCount: served.length }} live />
        <ReviewsPanel business={{ name: "Balcones Canopy Works" }} reviews={served} />
      </>,
    );
    document.body.prepend(page);
    return within(page);
  }

  const send = (form: Form) => user.click(form.getByRole("button", { name: "Submit Review" }));

  it("the stars are a radio group defaulting to 5 that arrow keys and taps change", async () => {
    const { form } = open("review", business("biz-r1"));
    expect(title("review")).toBe("Write a Review");
    expect(document.getElementById("review-dialog-description")!.textContent).toBe(
      "Share your experience with Balcones Canopy Works.",
    );
    const five = form.getByRole("radio", { name: "5 stars" }) as HTMLInputElement;
    expect(five.checked).toBe(true);
    five.focus();
    await user.keyboard("{ArrowLeft}");
    expect((form.getByRole("radio", { name: "4 stars" }) as HTMLInputElement).checked).toBe(true);
    await user.click(form.getByRole("radio", { name: "2 stars" }));
    expect((form.getByRole("radio", { name: "2 stars" }) as HTMLInputElement).checked).toBe(true);
    expect(form.getAllByRole("radio").filter((r) => (r as HTMLInputElement).checked)).toHaveLength(1);
  });

  it("the name is the one required field: an empty submit flags and focuses it, nothing is sent", async () => {
    const { form } = open("review", business("biz-r2"));
    await send(form);
    const name = form.getByLabelText(/^Your Name/);
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(isInvalid(name)).toBe(true);
    expect(description(name)).toBe(REVIEW_MESSAGES.customerName);
    expect(form.queryByText(REVIEW_MESSAGES.customerEmail)).toBeNull();
    // Typing clears it.
    await user.type(name, "S");
    expect(isInvalid(name)).toBe(false);
    expect(api.calls).toHaveLength(0);
  });

  it("a malformed e-mail is flagged before sending", async () => {
    const { form } = open("review", business("biz-r3"));
    await user.type(form.getByLabelText(/^Your Name/), "Sam");
    await user.type(form.getByLabelText(/^Email/), "not-an-email");
    await send(form);
    const email = form.getByLabelText(/^Email/);
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(description(email)).toBe(REVIEW_MESSAGES.customerEmail);
    expect(api.calls).toHaveLength(0);
  });

  it.each([
    ["a 500", reply.json(500, { error: "boom" })],
    ["a 503", reply.json(503, { error: "down" })],
    ["a 413", reply.json(413, { error: "Too large" })],
    ["a network failure", reply.networkError()],
  ])("%s keeps the dialog and what was typed, and toasts the failure", async (_, answer) => {
    api.on("POST", "/api/businesses/biz-r4/reviews", answer);
    const { form, dialog } = open("review", business("biz-r4"));
    await user.type(form.getByLabelText(/^Your Name/), "Sam");
    await user.type(form.getByLabelText("Title"), "Great");
    await send(form);
    await waitFor(() => expect(theToast().textContent).toContain(REVIEW_TOASTS.failure.description));
    expect(theToast().dataset.variant).toBe("destructive");
    expect(dialog.open).toBe(true);
    expect((form.getByLabelText(/^Your Name/) as HTMLInputElement).value).toBe("Sam");
    expect((form.getByLabelText("Title") as HTMLInputElement).value).toBe("Great");
    expect((form.getByRole("button", { name: "Submit Review" }) as HTMLButtonElement).disabled).toBe(false);
  });

  it.each([
    [
      "a 409 (one review per e-mail)",
      reply.json(409, {
        error: "You've already reviewed this business from this e-mail address.",
        fields: { customerEmail: "You've already reviewed this business from this e-mail address." },
      }),
    ],
    ["a 429 with Retry-After", reply.json(429, { error: "Too many reviews, later." }, { "retry-after": "20" })],
  ])("%s toasts the server's own words and keeps the dialog", async (_, answer) => {
    api.on("POST", "/api/businesses/biz-r4b/reviews", answer);
    const { form, dialog } = open("review", business("biz-r4b"));
    await user.type(form.getByLabelText(/^Your Name/), "Sam");
    await send(form);
    await waitFor(() => expect(theToast().textContent).toMatch(/already reviewed this business|Too many reviews/));
    expect(dialog.open).toBe(true);
    expect((form.getByLabelText(/^Your Name/) as HTMLInputElement).value).toBe("Sam");
  });

  it("a 400's messages show on their fields", async () => {
    api.on(
      "POST",
      "/api/businesses/biz-r5/reviews",
      reply.json(400, { error: "Please check the review.", fields: { title: REVIEW_MESSAGES.title } }),
    );
    const { form } = open("review", business("biz-r5"));
    await user.type(form.getByLabelText(/^Your Name/), "Sam");
    await send(form);
    const field = form.getByLabelText("Title");
    await waitFor(() => expect(description(field)).toBe(REVIEW_MESSAGES.title));
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(theToast().textContent).toContain(REVIEW_TOASTS.failure.description);
  });

  it("a 400 about the rating describes the stars and focuses the chosen one", async () => {
    api.on(
      "POST",
      "/api/businesses/biz-r5b/reviews",
      reply.json(400, { error: "Please check the review.", fields: { rating: REVIEW_MESSAGES.rating } }),
    );
    const { form } = open("review", business("biz-r5b"));
    await user.type(form.getByLabelText(/^Your Name/), "Sam");
    await user.click(form.getByRole("radio", { name: "3 stars" }));
    await send(form);
    const stars = form.getByRole("group", { name: "Rating" });
    await waitFor(() => expect(description(stars)).toBe(REVIEW_MESSAGES.rating));
    await waitFor(() => expect(document.activeElement).toBe(form.getByRole("radio", { name: "3 stars" })));
    // Choosing again clears it.
    await user.click(form.getByRole("radio", { name: "4 stars" }));
    expect(description(stars)).toBe("");
  });

  it("success: busy while sending, closes, toasts, and the page shows the review and the new rating", async () => {
    const id = "biz-r6";
    const served = [review("rev_a", "Alex", 5), review("rev_b", "Blair", 4)];
    const page = businessPage(id, served);
    const mine = { ...review("rev_new", "Casey Lane", 4), title: "On time", reviewText: "<b>Tidy</b> work." };
    api.on(
      "POST",
      `/api/businesses/${id}/reviews`,
      reply.json(201, { data: mine, business: { id, rating: "4.2", reviewCount: 3 } }),
    );
    // The refresh after the post fails: the page keeps its list with the new review on top.
    api.on("GET", `/api/businesses/${id}/reviews`, reply.json(500, {}));
    const { form, dialog } = open("review", business(id));
    await user.type(form.getByLabelText(/^Your Name/), "Casey Lane");
    await user.click(form.getByRole("radio", { name: "4 stars" }));
    await user.type(form.getByLabelText("Title"), "On time");
    await user.type(form.getByLabelText("Your Review"), "<b>Tidy</b> work.");
    await user.selectOptions(form.getByLabelText("Service Type"), "Tree Removal");
    const release = api.hold();
    await send(form);
    expect((form.getByRole("button", { name: "Submitting..." }) as HTMLButtonElement).disabled).toBe(true);
    // A second submit while pending sends nothing more.
    await act(async () => dialog.querySelector("form")!.requestSubmit());
    await act(async () => release());

    await waitFor(() => expect(dialog.open).toBe(false));
    expect(api.to(`/api/businesses/${id}/reviews`, "POST")).toHaveLength(1);
    expect(api.to(`/api/businesses/${id}/reviews`, "POST")[0]!.json()).toEqual({
      customerName: "Casey Lane",
      customerEmail: "",
      rating: 4,
      title: "On time",
      reviewText: "<b>Tidy</b> work.",
      serviceType: "Tree Removal",
      businessId: id,
    });
    await waitFor(() => expect(theToast().textContent).toContain(REVIEW_TOASTS.success.title));
    expect(theToast().textContent).toContain(REVIEW_TOASTS.success.description);

    const status = await page.findByRole("status");
    expect(status.textContent).toContain("Couldn't load the latest reviews.");
    const items = () => document.querySelectorAll<HTMLElement>("#reviews [data-review-id]");
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(items()[0]!.textContent).toContain("Casey Lane");
    // Text stays text.
    expect(items()[0]!.textContent).toContain("<b>Tidy</b> work.");
    expect(items()[0]!.querySelector("b")).toBeNull();
    const summary = document.querySelector(`[data-live-summary="${id}"]`)!;
    expect(summary.querySelector("[data-live-count]")!.textContent).toBe("3 reviews");
    expect(summary.querySelector("[data-live-rating]")!.textContent).toBe("4.2");
    expect(summary.querySelectorAll('[data-star][data-on="true"]')).toHaveLength(4);

    // Try again: the server's list (with the new review) replaces the page's.
    api.on(
      "GET",
      `/api/businesses/${id}/reviews`,
      reply.json(200, { data: [mine, ...served], total: 3, rating: "4.3", reviewCount: 3 }),
    );
    await user.click(within(status).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(page.queryByRole("status")).toBeNull());
    expect(items()).toHaveLength(3);
    expect(summary.querySelector("[data-live-rating]")!.textContent).toBe("4.3");
  });

  it("the first review of a business replaces the empty text", async () => {
    const id = "biz-r7";
    const page = businessPage(id, [], "0.0");
    expect(page.getByText(NO_REVIEWS)).toBeTruthy();
    const mine = review("rev_first", "Dana", 5);
    api.on(
      "POST",
      `/api/businesses/${id}/reviews`,
      reply.json(201, { data: mine, business: { id, rating: "5.0", reviewCount: 1 } }),
    );
    api.on(
      "GET",
      `/api/businesses/${id}/reviews`,
      reply.json(200, { data: [mine], total: 1, rating: "5.0", reviewCount: 1 }),
    );
    const { form } = open("review", business(id));
    await user.type(form.getByLabelText(/^Your Name/), "Dana");
    await send(form);
    await waitFor(() => expect(document.querySelectorAll("#reviews [data-review-id]")).toHaveLength(1));
    await waitFor(() => expect(page.queryByText(NO_REVIEWS)).toBeNull());
    expect(document.querySelector(`[data-live-summary="${id}"] [data-live-count]`)!.textContent).toBe("1 review");
  });

  it.each([
    ["an unreadable body", reply.malformed(201)],
    ["a body without the review", reply.json(201, {})],
  ])("a 201 with %s still closes and thanks (the review is stored: no retry, no duplicate)", async (_, answer) => {
    const id = "biz-r8";
    api.on("POST", `/api/businesses/${id}/reviews`, answer);
    api.on(
      "GET",
      `/api/businesses/${id}/reviews`,
      reply.json(200, { data: [], total: 0, rating: "0.0", reviewCount: 0 }),
    );
    const { form, dialog } = open("review", business(id));
    await user.type(form.getByLabelText(/^Your Name/), "Sam");
    await send(form);
    await waitFor(() => expect(dialog.open).toBe(false));
    await waitFor(() => expect(theToast().textContent).toContain(REVIEW_TOASTS.success.title));
    // Give a late failure toast the chance to replace it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(theToast().textContent).toContain(REVIEW_TOASTS.success.title);
    expect(api.to(`/api/businesses/${id}/reviews`, "POST")).toHaveLength(1);
  });

  it("without scripts the form posts itself (method, action, star radios); a submit held before hydration is sent by the island", async () => {
    const id = "biz-r9";
    const mine = review("rev_held", "Eli", 5);
    api.on(
      "POST",
      `/api/businesses/${id}/reviews`,
      reply.json(201, { data: mine, business: { id, rating: "5.0", reviewCount: 1 } }),
    );
    api.on(
      "GET",
      `/api/businesses/${id}/reviews`,
      reply.json(200, { data: [mine], total: 1, rating: "5.0", reviewCount: 1 }),
    );
    const props = { kind: "review", business: business(id), source: "/directory/x" } as const;
    const frame = dialogFrame("review-dialog");
    frame.container.innerHTML = renderToString(<LeadDialogs {...props} />);
    expect(frame.container.querySelector("noscript")).toBeNull();
    const server = frame.container.querySelector("form")!;
    expect(server.getAttribute("method")).toBe("post");
    expect(server.getAttribute("action")).toBe(`/api/businesses/${id}/reviews`);
    const radios = [...server.querySelectorAll<HTMLInputElement>('input[type="radio"][name="rating"]')];
    expect(radios.map((r) => r.value)).toEqual(["1", "2", "3", "4", "5"]);
    expect(radios.find((r) => r.checked)?.value).toBe("5");
    expect(server.hasAttribute(ISLAND_SENDS)).toBe(true);
    (server.elements.namedItem("customerName") as HTMLInputElement).value = "Eli";
    server.querySelector<HTMLInputElement>('input[name="rating"][value="3"]')!.checked = true;
    server.setAttribute(HELD_SUBMIT, "");
    // The page set data-send before React arrived; React only reports that attribute it did not render.
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const release = api.hold();
    render(<LeadDialogs {...props} />, { container: frame.container, hydrate: true });
    await waitFor(() => expect(api.calls).toHaveLength(1));
    // Hydrated in place: the page's form (with the star chosen early) is the island's.
    expect(frame.container.querySelector("form")).toBe(server);
    expect(errors.mock.calls.map((c) => String(c[0])).filter((m) => /Hydration failed/.test(m))).toEqual([]);
    expect(within(frame.dialog).getByText("3 / 5")).toBeTruthy();
    await act(async () => release());
    await waitFor(() => expect(frame.dialog.open).toBe(false));
    expect(api.to(`/api/businesses/${id}/reviews`, "POST")[0]!.json()).toMatchObject({
      customerName: "Eli",
      rating: 3,
    });
  });
});
