// @vitest-environment happy-dom
/**
 * The island parts the functions' no-JS pages render too (react-dom/server): LeadForm as a
 * plain post with the server's messages and summary, the confirmations, and the chat's log
 * and form as the reply page shows them.
 */
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import LeadDialogs from "../../../src/islands/LeadDialogs.tsx";
import { ChatForm, ChatLog, quoteActionHref, type ShownMessage } from "../../../src/views/chat/ChatPanel.tsx";
import { BookingConfirmation, GrowthConfirmation } from "../../../src/views/leads/Confirmations.tsx";
import { LeadForm } from "../../../src/views/leads/LeadForm.tsx";
import { CHAT_FORM_FIELDS, CHAT_IDS, MAX_HISTORY_MESSAGES, QUOTE_ACTION_LABEL } from "../../../src/lib/chat.ts";
import { AUDIT_CONFIRMATION, BOOKING_CONFIRMATION } from "../../../src/lib/forms/copy.ts";
import { FIND_PROS_FORM, QUOTE_FORM } from "../../../src/lib/forms/fields.ts";
import { HONEYPOT_FIELD, SOURCE_FIELD, STARTED_FIELD } from "../../../src/lib/forms/markup.ts";
import { MESSAGES, VALIDATION_ERROR } from "../../../src/lib/schemas/forms.ts";
import { receiptOf } from "../../../src/lib/receipt.ts";
import { SITE } from "../../../src/lib/site.ts";
import { description, isInvalid } from "../../helpers/islands.ts";

describe("LeadForm without script (the no-JS error page)", () => {
  it("lists the server's messages in form order, linked to their fields, and keeps the values", () => {
    render(
      <LeadForm
        form={QUOTE_FORM}
        defaults={{ name: "J", email: "jordan@example.com", serviceType: "tree-removal" }}
        initialErrors={{ urgency: MESSAGES.urgency, name: MESSAGES.name }}
        hidden={{ [SOURCE_FIELD]: "/services/tree-removal", [STARTED_FIELD]: "1700000000000" }}
      />,
    );
    const summary = screen.getByRole("alert");
    expect(within(summary).getByText(VALIDATION_ERROR)).toBeTruthy();
    const links = within(summary).getAllByRole("link");
    expect(links.map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      [MESSAGES.name, "#quote-name"],
      [MESSAGES.urgency, "#quote-urgency"],
    ]);
    const form = document.getElementById("quote-form") as HTMLFormElement;
    expect(form.getAttribute("aria-describedby")).toBe(summary.id);
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe(QUOTE_FORM.action);
    const name = screen.getByLabelText(/^Full Name/) as HTMLInputElement;
    expect(name.value).toBe("J");
    expect(isInvalid(name)).toBe(true);
    expect(description(name)).toBe(MESSAGES.name);
    expect((screen.getByLabelText(/^Service Needed/) as HTMLSelectElement).value).toBe("tree-removal");
    const data = new FormData(form);
    expect(data.get(SOURCE_FIELD)).toBe("/services/tree-removal");
    expect(data.get(STARTED_FIELD)).toBe("1700000000000");
    expect(data.get(HONEYPOT_FIELD)).toBe("");
    // The trap is out of the accessibility tree and the tab order.
    expect(screen.queryByRole("textbox", { name: "Leave this field empty" })).toBeNull();
    expect(document.getElementById(`quote-${HONEYPOT_FIELD}`)!.tabIndex).toBe(-1);
  });

  it("without a sender a submit is the browser's own post", () => {
    render(<LeadForm form={QUOTE_FORM} />);
    const event = new Event("submit", { bubbles: true, cancelable: true });
    document.getElementById("quote-form")!.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("the find-pros form posts multipart with its photo field", () => {
    render(<LeadForm form={FIND_PROS_FORM} />);
    const form = document.getElementById("find-pros-form")!;
    expect(form.getAttribute("enctype")).toBe("multipart/form-data");
    const photo = screen.getByLabelText(/^Photo/) as HTMLInputElement;
    expect(photo.type).toBe("file");
    expect(photo.accept).toBe("image/*");
  });
});

describe("confirmations", () => {
  /** A reply without the receipt fields (older replies): no receipt block, routine wording. */
  const none = receiptOf({});

  it("the booking page names the business and links back to it", () => {
    const { rerender } = render(
      <BookingConfirmation businessName="Balcones Canopy Works" slug="balcones canopy" receipt={none} />,
    );
    expect(screen.getByTestId("booking-with").textContent).toBe(
      `${BOOKING_CONFIRMATION.offeredTo} Balcones Canopy Works.`,
    );
    expect(
      screen.getByRole("link", { name: `${BOOKING_CONFIRMATION.backTo} Balcones Canopy Works` }).getAttribute("href"),
    ).toBe("/directory/balcones%20canopy");
    rerender(<BookingConfirmation businessName="Balcones Canopy Works" receipt={none} />);
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("the growth confirmation has its two sections", () => {
    render(<GrowthConfirmation receipt={none} />);
    expect(
      within(screen.getByRole("region", { name: AUDIT_CONFIRMATION.nextStepsHeading })).getAllByRole("listitem"),
    ).toHaveLength(AUDIT_CONFIRMATION.nextSteps.length);
    expect(
      within(screen.getByRole("region", { name: AUDIT_CONFIRMATION.outcomesHeading })).getAllByRole("listitem"),
    ).toHaveLength(AUDIT_CONFIRMATION.outcomes.length);
  });

  it("a business dialog without its business renders nothing", () => {
    const { container } = render(<LeadDialogs kind="booking" source="/" />);
    expect(container.innerHTML).toBe("");
  });
});

describe("the chat's log and form on the no-JS reply page", () => {
  const conversation: ShownMessage[] = [
    { role: "assistant", content: "Hello" },
    { role: "user", content: "A tree fell" },
    {
      role: "assistant",
      content: `Call **now**: ${SITE.phone} or ${SITE.email}.\n\n- one\n- two`,
      actions: [{ type: "quote", serviceType: "tree-removal", urgency: "emergency" }],
    },
  ];

  it("replies show bold, paragraphs, bullets and contact links; the quote action is a link to a page with a quote button", () => {
    render(<ChatLog messages={conversation} actionLinks />);
    const log = screen.getByRole("log", { name: "Conversation" });
    const newest = document.getElementById(CHAT_IDS.latest)!;
    expect(newest.dataset.chatMessage).toBe("assistant");
    expect(within(newest).getByText("now").tagName).toBe("STRONG");
    expect(within(newest).getByRole("link", { name: SITE.phone }).getAttribute("href")).toBe(SITE.phoneHref);
    expect(within(newest).getByRole("link", { name: SITE.email }).getAttribute("href")).toBe(`mailto:${SITE.email}`);
    expect(newest.querySelectorAll("p")).toHaveLength(2);
    expect(newest.querySelectorAll("p")[1]!.textContent).toBe("• one• two");
    const action = within(log).getByRole("link", { name: QUOTE_ACTION_LABEL });
    expect(action.getAttribute("href")).toBe("/services/emergency");
    expect(within(log).queryByRole("button")).toBeNull();
    expect(log.textContent).toContain("You: A tree fell");
  });

  it.each([
    [{ type: "quote", urgency: "emergency" }, "/services/emergency"],
    [{ type: "quote", serviceType: "stump-grinding" }, "/services/stump-grinding"],
    [{ type: "quote" }, "/"],
  ] as const)("a quote action %o leads to %s", (action, href) => {
    expect(quoteActionHref(action)).toBe(href);
  });

  it("the form carries the newest messages as hidden pairs and a server message tied to the box", () => {
    const long: ShownMessage[] = Array.from({ length: MAX_HISTORY_MESSAGES + 5 }, (_, i) => ({
      role: i % 2 ? "user" : "assistant",
      content: `m${i}`,
    }));
    render(<ChatForm messages={long} defaultDraft="kept" error="Messages are limited to 2,000 characters." />);
    const form = document.querySelector("form")!;
    expect(form.getAttribute("action")).toBe(`/api/chat#${CHAT_IDS.latest}`);
    const data = new FormData(form);
    expect(data.getAll(CHAT_FORM_FIELDS.content)).toHaveLength(MAX_HISTORY_MESSAGES);
    expect(data.getAll(CHAT_FORM_FIELDS.content)[0]).toBe("m5");
    expect(data.get(CHAT_FORM_FIELDS.message)).toBe("kept");
    const box = screen.getByRole("textbox", { name: "Message" });
    expect(isInvalid(box)).toBe(true);
    expect(description(box)).toBe("Messages are limited to 2,000 characters.");
    expect(screen.getByRole("alert").id).toBe(CHAT_IDS.error);
    expect((screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement).disabled).toBe(false);
  });
});
