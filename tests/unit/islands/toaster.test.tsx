// @vitest-environment happy-dom
/**
 * The site's one notification region (src/islands/leads/Toaster.tsx, mounted by the first
 * island that may toast): it takes over the static placeholder, shows one toast at a time
 * from the shared $toasts store, and each toast can be closed. The swipe gesture and the
 * move into an open modal `<dialog>` (happy-dom has no `:modal`) stay in Playwright.
 */
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ensureToaster } from "../../../src/islands/leads/Toaster.tsx";
import {
  BOOKING_TOASTS,
  HOTLINE,
  QUOTE_TOASTS,
  RECEIPT_COPY,
  REVIEW_TOASTS,
  withReceipt,
} from "../../../src/lib/forms/copy.ts";
import { $toasts, dismissToast, showToast } from "../../../src/lib/stores/dialogs.ts";
import { theToast, toasts } from "../../helpers/islands.ts";
import { RECEIPT } from "../../helpers/receipts.ts";
import { SITE } from "../../../src/lib/site.ts";

const region = () => screen.getAllByRole("region", { name: "Notifications (F8)" });

describe("Toaster", () => {
  it("takes over the static region: the page keeps exactly one, and mounting twice changes nothing", async () => {
    const placeholder = document.createElement("section");
    placeholder.setAttribute("data-notification-region", "");
    placeholder.setAttribute("aria-label", "Notifications (F8)");
    placeholder.id = "notifications";
    document.body.append(placeholder);
    await act(async () => {
      ensureToaster();
      ensureToaster();
    });
    await waitFor(() => expect(document.querySelector("[data-notification-region]")).toBeNull());
    expect(region()).toHaveLength(1);
    expect(region()[0]!.querySelector("#notifications")).toBeTruthy();
  });

  it("shows one toast at a time, the newest, with its title, description and variant", async () => {
    await act(async () => ensureToaster());
    await act(async () => void showToast(QUOTE_TOASTS.failure));
    expect(theToast().textContent).toContain(QUOTE_TOASTS.failure.title);
    expect(theToast().textContent).toContain(QUOTE_TOASTS.failure.description);
    expect(theToast().dataset.variant).toBe("destructive");
    await act(async () => void showToast(REVIEW_TOASTS.success));
    expect(toasts()).toHaveLength(1);
    expect(theToast().textContent).toContain(REVIEW_TOASTS.success.description);
    expect(theToast().dataset.variant).toBe("default");
  });

  it("a receipt toast shows the reference in bold and its action as a real link", async () => {
    await act(async () => ensureToaster());
    await act(async () => void showToast(withReceipt(BOOKING_TOASTS.success, RECEIPT)));
    expect(theToast().textContent).toContain(BOOKING_TOASTS.success.description);
    expect(within(theToast()).getByText(RECEIPT.reference).tagName).toBe("STRONG");
    const link = within(theToast()).getByRole("link", { name: RECEIPT_COPY.track });
    expect(link.getAttribute("href")).toBe(RECEIPT.statusUrl);
    // Without a reference it is the plain toast.
    expect(withReceipt(BOOKING_TOASTS.success, { ...RECEIPT, reference: "" })).toBe(BOOKING_TOASTS.success);
  });

  it("an emergency's receipt toast offers our own line, named as ours, as a tap-to-call link; a routine one has none", async () => {
    ensureToaster();
    await act(async () => void showToast(withReceipt(BOOKING_TOASTS.emergency, RECEIPT)));
    const links = within(theToast()).getAllByRole("link");
    expect(links.map((a) => a.getAttribute("href"))).toEqual([SITE.phoneHref, RECEIPT.statusUrl]);
    expect(links[0]!.textContent).toBe(HOTLINE.text);
    await act(async () => void showToast(withReceipt(BOOKING_TOASTS.success, RECEIPT)));
    expect(within(theToast()).queryByRole("link", { name: HOTLINE.text })).toBeNull();
  });

  it("Close dismisses the toast and empties the store", async () => {
    await act(async () => ensureToaster());
    await act(async () => void showToast(QUOTE_TOASTS.success));
    await userEvent.click(within(theToast()).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(toasts()).toHaveLength(0));
    expect($toasts.get()).toEqual([]);
  });

  it("dismissing by id removes only that toast", async () => {
    await act(async () => ensureToaster());
    const id = await act(async () => showToast(QUOTE_TOASTS.success));
    await act(async () => dismissToast(id + 1000));
    expect(toasts()).toHaveLength(1);
    await act(async () => dismissToast(id));
    await waitFor(() => expect(toasts()).toHaveLength(0));
  });

  it("F8 moves focus to the notifications", async () => {
    await act(async () => ensureToaster());
    await act(async () => void showToast(QUOTE_TOASTS.success));
    await userEvent.keyboard("{F8}");
    expect(document.activeElement?.id).toBe("notifications");
  });
});
