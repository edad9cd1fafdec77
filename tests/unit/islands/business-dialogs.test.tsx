// @vitest-environment happy-dom
/**
 * The dialogs island as the growth audit and the phase assessment (BusinessDialogBody:
 * one business form, one confirmation, the audit's toasts).
 */
import { act, render, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { beforeEach, describe, expect, it } from "vitest";
import LeadDialogs from "../../../src/islands/LeadDialogs.tsx";
import { AUDIT_CONFIRMATION, AUDIT_TOASTS, RECEIPT_COPY } from "../../../src/lib/forms/copy.ts";
import { ASSESSMENT_FORM, AUDIT_FORM } from "../../../src/lib/forms/fields.ts";
import { CHALLENGES, GOALS } from "../../../src/lib/options.ts";
import { MESSAGES } from "../../../src/lib/schemas/forms.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import { description, dialogFrame, isInvalid, theToast } from "../../helpers/islands.ts";
import { RECEIPT } from "../../helpers/receipts.ts";

const contact = { name: "Jordan Rivera", email: "jordan@example.com", phone: "(512) 555-0199" };

let api: FetchMock;
let user: UserEvent;

beforeEach(() => {
  api = mockFetch();
  user = userEvent.setup({ delay: null });
  history.replaceState(null, "", "/business-growth");
});

function open(kind: "audit" | "assessment", preset: Record<string, string> = {}, source = "/business-growth") {
  const frame = dialogFrame(`${kind}-dialog`);
  render(<LeadDialogs kind={kind} preset={preset} source={source} />, { container: frame.container });
  return { ...frame, form: within(frame.dialog) };
}

type Form = ReturnType<typeof open>["form"];

async function fillBusiness(form: Form) {
  await user.type(form.getByLabelText(/^Full Name/), contact.name);
  await user.type(form.getByLabelText(/^Email/), contact.email);
  await user.type(form.getByLabelText(/^Phone/), contact.phone);
  await user.type(form.getByLabelText(/^Company Name/), "Rivera Tree Care");
  await user.selectOptions(form.getByLabelText(/^Annual Revenue/), "100k-250k");
  await user.selectOptions(form.getByLabelText(/^Years in Business/), "3-5");
  await user.selectOptions(form.getByLabelText(/^Team Size/), "2-5");
  await user.click(form.getByLabelText(CHALLENGES[0]!.label));
  await user.click(form.getByLabelText(CHALLENGES[3]!.label));
  await user.click(form.getByLabelText(GOALS[0]!.label));
}

const title = () => document.querySelector("dialog h2")!.textContent;

describe("audit dialog: errors", () => {
  it("an empty submit shows every required field's message and focuses the first", async () => {
    const { form } = open("audit");
    expect(title()).toBe(AUDIT_FORM.title);
    await user.click(form.getByRole("button", { name: AUDIT_FORM.submit }));
    for (const field of [
      "name",
      "email",
      "phone",
      "companyName",
      "currentRevenue",
      "yearsInBusiness",
      "employeeCount",
      "currentChallenges",
      "growthGoals",
    ] as const) {
      expect(form.getByText(MESSAGES[field], { exact: true })).toBeTruthy();
    }
    await waitFor(() => expect(document.activeElement).toBe(form.getByLabelText(/^Full Name/)));
    // Ten challenges and ten goals, each group described by its message.
    const challenges = form.getByRole("group", { name: /Current Challenges/ });
    expect(within(challenges).getAllByRole("checkbox")).toHaveLength(10);
    expect(within(form.getByRole("group", { name: /Growth Goals/ })).getAllByRole("checkbox")).toHaveLength(10);
    expect(description(challenges)).toBe(MESSAGES.currentChallenges);
    expect(within(challenges).getAllByRole("checkbox").every(isInvalid)).toBe(true);
    expect(api.calls).toHaveLength(0);

    // Ticking one challenge clears the group's message.
    await user.click(form.getByLabelText(CHALLENGES[1]!.label));
    expect(form.queryByText(MESSAGES.currentChallenges, { exact: true })).toBeNull();
  });

  it("only the checkbox groups left empty are flagged, and focus goes to the first of them", async () => {
    const { form } = open("audit");
    await fillBusiness(form);
    await user.click(form.getByLabelText(GOALS[0]!.label)); // untick the only goal
    await user.click(form.getByRole("button", { name: AUDIT_FORM.submit }));
    expect(form.getByText(MESSAGES.growthGoals, { exact: true })).toBeTruthy();
    expect(form.queryByText(MESSAGES.currentChallenges, { exact: true })).toBeNull();
    const goals = within(form.getByRole("group", { name: /Growth Goals/ })).getAllByRole("checkbox");
    await waitFor(() => expect(document.activeElement).toBe(goals[0]));
  });

  it.each([
    ["a network failure", reply.networkError()],
    ["a 500", reply.json(500, { error: "boom" })],
    ["a 429 with Retry-After", reply.json(429, { error: "Too many requests" }, { "retry-after": "60" })],
  ])("%s shows the audit error toast and keeps the form", async (_, answer) => {
    api.on("POST", "/api/audit", answer);
    const { form } = open("audit");
    await fillBusiness(form);
    await user.click(form.getByRole("button", { name: AUDIT_FORM.submit }));
    await waitFor(() => expect(theToast().textContent).toContain(AUDIT_TOASTS.failure.description));
    expect(theToast().dataset.variant).toBe("destructive");
    expect((form.getByLabelText(/^Company Name/) as HTMLInputElement).value).toBe("Rivera Tree Care");
    expect((form.getByLabelText(CHALLENGES[3]!.label) as HTMLInputElement).checked).toBe(true);
    expect(title()).toBe(AUDIT_FORM.title);
  });

  it("a 400's message for a checkbox group shows on the group and focuses its first box", async () => {
    api.on(
      "POST",
      "/api/audit",
      reply.json(400, {
        error: "Please correct the highlighted fields.",
        fields: { "growthGoals.0": MESSAGES.growthGoals },
      }),
    );
    const { form } = open("audit");
    await fillBusiness(form);
    await user.click(form.getByRole("button", { name: AUDIT_FORM.submit }));
    const goals = form.getByRole("group", { name: /Growth Goals/ });
    await waitFor(() => expect(description(goals)).toBe(MESSAGES.growthGoals));
    await waitFor(() => expect(document.activeElement).toBe(within(goals).getAllByRole("checkbox")[0]));
  });
});

describe("audit dialog: success", () => {
  it("is busy while sending, posts the spec payload, confirms with the receipt and toasts", async () => {
    api.on("POST", "/api/audit", reply.json(201, { ok: true, id: "ld_a", ...RECEIPT }));
    const { form, dialog } = open("audit");
    await fillBusiness(form);
    const release = api.hold();
    await user.click(form.getByRole("button", { name: AUDIT_FORM.submit }));
    expect((form.getByRole("button", { name: AUDIT_FORM.pending }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => release());

    await waitFor(() => expect(title()).toBe(AUDIT_CONFIRMATION.title));
    expect(document.getElementById("audit-dialog-description")!.textContent).toBe(AUDIT_TOASTS.success.description);
    expect(form.getByRole("heading", { name: AUDIT_CONFIRMATION.nextStepsHeading })).toBeTruthy();
    expect(form.getByRole("heading", { name: AUDIT_CONFIRMATION.outcomesHeading })).toBeTruthy();
    for (const text of [...AUDIT_CONFIRMATION.nextSteps, ...AUDIT_CONFIRMATION.outcomes])
      expect(dialog.textContent).toContain(text);
    const receipt = form.getByTestId("lead-receipt");
    expect(receipt.textContent).toContain(`${RECEIPT_COPY.referenceLabel} ${RECEIPT.reference}`);
    expect(within(receipt).getByText(RECEIPT.reference).tagName).toBe("STRONG");
    expect(within(receipt).getByRole("link", { name: RECEIPT_COPY.track }).getAttribute("href")).toBe(
      RECEIPT.statusUrl,
    );
    expect(receipt.textContent).toContain(RECEIPT_COPY.willEmail);
    expect(api.calls[0]!.json()).toEqual({
      name: contact.name,
      email: contact.email,
      phone: contact.phone,
      companyName: "Rivera Tree Care",
      currentRevenue: "100k-250k",
      yearsInBusiness: "3-5",
      employeeCount: "2-5",
      currentChallenges: [CHALLENGES[0]!.value, CHALLENGES[3]!.value],
      growthGoals: [GOALS[0]!.value],
      _started: expect.stringMatching(/^\d+$/),
      _source: "/business-growth",
    });
    await waitFor(() => expect(theToast().textContent).toContain(AUDIT_TOASTS.success.title));
    expect(theToast().textContent).toContain(AUDIT_TOASTS.success.description);

    // Done closes; the next opening is a fresh form.
    await user.click(form.getByRole("button", { name: "Done" }));
    expect(dialog.open).toBe(false);
    await act(async () => dialog.showModal());
    expect(title()).toBe(AUDIT_FORM.title);
    expect((form.getByLabelText(/^Company Name/) as HTMLInputElement).value).toBe("");
  });

  it("the prebuilt form's typing and ticks survive hydration and go with the submit", async () => {
    api.on("POST", "/api/audit", reply.json(201, { ok: true, id: "ld_b" }));
    const frame = dialogFrame("audit-dialog");
    frame.container.innerHTML = renderToString(<LeadDialogs kind="audit" source="/" />);
    const server = frame.container.querySelector("form")!;
    (server.elements.namedItem("name") as HTMLInputElement).value = contact.name;
    (server.elements.namedItem("currentRevenue") as HTMLSelectElement).value = "100k-250k";
    server.querySelector<HTMLInputElement>(`input[value="${CHALLENGES[3]!.value}"]`)!.checked = true;
    server.querySelector<HTMLInputElement>(`input[value="${GOALS[0]!.value}"]`)!.checked = true;
    render(<LeadDialogs kind="audit" source="/" />, { container: frame.container, hydrate: true });
    const form = within(frame.dialog);
    expect((form.getByLabelText(/^Full Name/) as HTMLInputElement).value).toBe(contact.name);
    expect((form.getByLabelText(/^Annual Revenue/) as HTMLSelectElement).value).toBe("100k-250k");
    expect((form.getByLabelText(CHALLENGES[3]!.label) as HTMLInputElement).checked).toBe(true);
    expect((form.getByLabelText(GOALS[0]!.label) as HTMLInputElement).checked).toBe(true);

    await user.type(form.getByLabelText(/^Email/), contact.email);
    await user.type(form.getByLabelText(/^Phone/), contact.phone);
    await user.type(form.getByLabelText(/^Company Name/), "Rivera Tree Care");
    await user.selectOptions(form.getByLabelText(/^Years in Business/), "3-5");
    await user.selectOptions(form.getByLabelText(/^Team Size/), "2-5");
    await user.click(form.getByRole("button", { name: AUDIT_FORM.submit }));
    await waitFor(() => expect(title()).toBe(AUDIT_CONFIRMATION.title));
    expect(api.calls[0]!.json()).toMatchObject({
      name: contact.name,
      currentRevenue: "100k-250k",
      currentChallenges: [CHALLENGES[3]!.value],
      growthGoals: [GOALS[0]!.value],
    });
  });
});

describe("assessment dialog", () => {
  it("shows the preselected phase, sends it and confirms like the audit", async () => {
    api.on("POST", "/api/assessment", reply.json(201, { ok: true, id: "ld_c" }));
    history.replaceState(null, "", "/business-growth/phase-3");
    const { form } = open("assessment", { phase: "phase-3" }, "/business-growth/phase-3");
    expect(title()).toBe(ASSESSMENT_FORM.title);
    expect((form.getByLabelText(/^Growth Phase/) as HTMLSelectElement).value).toBe("phase-3");
    await fillBusiness(form);
    await user.click(form.getByRole("button", { name: ASSESSMENT_FORM.submit }));
    await waitFor(() => expect(title()).toBe(AUDIT_CONFIRMATION.title));
    expect(api.to("/api/assessment")[0]!.json()).toMatchObject({
      phase: "phase-3",
      companyName: "Rivera Tree Care",
      _source: "/business-growth/phase-3",
    });
    await waitFor(() => expect(theToast().textContent).toContain(AUDIT_TOASTS.success.title));
  });

  it("without a phase it asks for one first", async () => {
    const { form } = open("assessment");
    await fillBusiness(form);
    await user.click(form.getByRole("button", { name: ASSESSMENT_FORM.submit }));
    const phase = form.getByLabelText(/^Growth Phase/);
    await waitFor(() => expect(document.activeElement).toBe(phase));
    expect(isInvalid(phase)).toBe(true);
    expect(api.calls).toHaveLength(0);
  });
});
