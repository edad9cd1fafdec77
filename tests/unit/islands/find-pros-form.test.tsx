// @vitest-environment happy-dom
/**
 * "Get Multiple Quotes Fast" (src/islands/FindProsForm.tsx with find-pros/*): validation
 * with the function's schema, the photo check, every answer of POST /api/find-pros (the
 * outcomes of find-pros/submit.ts), the confirmation and hydration of the no-JS form.
 */
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import FindProsForm from "../../../src/islands/FindProsForm.tsx";
import { DANGER_FIRST, EMERGENCY_CONFIRMATION, RECEIPT_COPY, noMatchesMessage } from "../../../src/lib/forms/copy.ts";
import { FIND_PROS_FORM } from "../../../src/lib/forms/fields.ts";
import { SITE } from "../../../src/lib/site.ts";
import { MESSAGES } from "../../../src/lib/schemas/forms.ts";
import { MAX_UPLOAD_BYTES } from "../../../src/lib/photos.ts";
import { mockFetch, reply, type FetchMock } from "../../helpers/fetch-mock.ts";
import { description, isInvalid, theToast, toasts } from "../../helpers/islands.ts";
import { ARRIVAL_PROMISE, DAY_PROMISE, RECEIPT } from "../../helpers/receipts.ts";

const PAGE = "/find-a-tree-service";
const API = "/api/find-pros";

/** A request that passes FindProsRequest. */
const VALID = {
  location: "Austin",
  serviceType: "Tree Removal",
  propertyType: "residential",
  description: "Dead live oak leaning toward the garage, about 40 ft.",
  timeline: "within-week",
  name: "Jordan Rivera",
  email: "jordan.rivera@example.com",
  phone: "(512) 555-0199",
} as const;

const MATCHES = [
  {
    name: "Balcones Canopy Works",
    slug: "balcones-canopy-works-austin",
    phone: "(512) 555-0142",
    rating: "4.9",
    reviewCount: 187,
    distanceMiles: 3.24,
  },
  { name: "Eastside Stump & Limb", slug: "eastside-stump-limb-austin", rating: 4.6, reviewCount: 1 },
];

const NETWORK = /couldn't reach our server/;
const FAILED = /Failed to submit your request/;

let api: FetchMock;
let user: UserEvent;

beforeEach(() => {
  api = mockFetch();
  user = userEvent.setup({ delay: null });
});

/**
 * Chooses a file the way the browser's picker does. user-event's upload() shadows `files`
 * on the element, which happy-dom's FormData does not read; a DataTransfer's list is the
 * element's own. Any file: the picker's `accept` is a hint, the island has to check.
 */
function choose(input: HTMLElement, file: File) {
  const picked = new DataTransfer();
  picked.items.add(file);
  (input as HTMLInputElement).files = picked.files;
  fireEvent.change(input);
}

const label = (name: string) => FIND_PROS_FORM.fields.find((f) => f.name === name)!.label;
/** A control by its visible label; required fields add an aria-hidden " *" to it. */
const control = (name: string) =>
  screen.getByLabelText(new RegExp(`^${label(name).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( \\*)?$`)) as
    HTMLInputElement | HTMLSelectElement;
const form = () => screen.getByRole("form", { name: FIND_PROS_FORM.title }) as HTMLFormElement;
const submitButton = () => screen.getByRole("button", { name: FIND_PROS_FORM.submit }) as HTMLButtonElement;

async function fillValid(values: Partial<Record<keyof typeof VALID, string>> = VALID) {
  for (const field of FIND_PROS_FORM.fields) {
    const value = values[field.name as keyof typeof VALID];
    if (value === undefined) continue;
    if (field.kind === "select") await user.selectOptions(control(field.name), value);
    else await user.type(control(field.name), value);
  }
}

function mount() {
  render(<FindProsForm source={PAGE} />);
}

describe("find pros: checks before sending", () => {
  it("an empty submit shows the schema's messages on each field, focuses the first and sends nothing", async () => {
    mount();
    expect(form().noValidate).toBe(true);
    await user.click(submitButton());
    for (const [name, message] of [
      ["location", MESSAGES.location],
      ["serviceType", MESSAGES.serviceType],
      ["propertyType", MESSAGES.propertyType],
      ["timeline", MESSAGES.timeline],
      ["name", MESSAGES.name],
      ["email", MESSAGES.email],
      ["phone", MESSAGES.phone],
    ] as const) {
      expect(isInvalid(control(name))).toBe(true);
      expect(description(control(name))).toBe(message);
    }
    expect(isInvalid(control("description"))).toBe(false);
    expect(document.activeElement).toBe(control("location"));
    expect(screen.getByText("7 fields need attention.")).toBeTruthy();
    expect(api.calls).toHaveLength(0);

    // After the first attempt the messages follow the corrections as the visitor types.
    await user.type(control("location"), "Austin");
    expect(screen.queryByText(MESSAGES.location)).toBeNull();
    expect(screen.getByText(MESSAGES.name)).toBeTruthy();
    expect(screen.getByText("6 fields need attention.")).toBeTruthy();
  });

  it("before any attempt, typing shows no messages", async () => {
    mount();
    await user.type(control("email"), "not-an-email");
    expect(screen.queryByText(MESSAGES.email)).toBeNull();
  });

  // (happy-dom decodes no image: a photo it cannot make smaller goes as chosen when it fits;
  // making one smaller is tests/unit/photo-resize.test.ts's.)
  it.each([
    ["a file that is not an image", new File(["not a picture"], "notes.txt", { type: "text/plain" }), MESSAGES.photo],
    [
      "an image over the limit this browser cannot make smaller",
      new File([new Uint8Array(MAX_UPLOAD_BYTES + 1)], "huge.jpg", { type: "image/jpeg" }),
      MESSAGES.photoTooLarge,
    ],
  ])("the photo is checked before upload: %s is refused", async (_, file, message) => {
    mount();
    await fillValid();
    choose(control("photo"), file);
    await user.click(submitButton());
    await waitFor(() => expect(description(control("photo"))).toBe(message));
    expect(document.activeElement).toBe(control("photo"));
    expect(api.calls).toHaveLength(0);
  });
});

describe("find pros: failures", () => {
  it("a 503 keeps every value, says why inline and in a toast; a retry reuses the key, an edit gets a new one", async () => {
    const said = "Quote requests are paused for a moment. Please try again.";
    api.on("POST", API, reply.json(503, { error: said }));
    mount();
    await fillValid();
    await user.click(submitButton());
    expect((await screen.findByRole("alert")).textContent).toBe(said);
    for (const field of FIND_PROS_FORM.fields) {
      const value = VALID[field.name as keyof typeof VALID];
      if (value !== undefined) expect(control(field.name).value).toBe(value);
    }
    expect(submitButton().disabled).toBe(false);
    expect(theToast().textContent).toContain(said);
    expect(theToast().dataset.variant).toBe("destructive");

    await user.click(submitButton());
    await waitFor(() => expect(api.calls).toHaveLength(2));
    const key = api.calls[0]!.headers.get("idempotency-key");
    expect(key).toMatch(/^[0-9a-f-]{16,}$/i);
    expect(api.calls[1]!.headers.get("idempotency-key")).toBe(key);
    await waitFor(() => expect(toasts()).toHaveLength(1));

    await user.type(control("description"), " Urgent.");
    await user.click(submitButton());
    await waitFor(() => expect(api.calls).toHaveLength(3));
    expect(api.calls[2]!.headers.get("idempotency-key")).not.toBe(key);
  });

  it.each([
    ["a network failure", reply.networkError(), NETWORK],
    ["an aborted request", reply.aborted(), NETWORK],
    ["a 500 with an unreadable body", reply.malformed(500), FAILED],
    ["a 500 with no message", reply.json(500, {}), FAILED],
    ["a 409", reply.json(409, { error: "This request was already sent with other details" }), /already sent/],
    ["a 415", reply.json(415, { error: "Unsupported content type" }), /Unsupported content type/],
    ["a 429 with Retry-After", reply.json(429, { error: "Too many requests" }, { "retry-after": "30" }), /Too many/],
    ["a 400 without field messages", reply.json(400, { error: "Invalid request" }), /Invalid request/],
  ])("%s is said inline and keeps the form", async (_, answer, message) => {
    api.on("POST", API, answer);
    mount();
    await fillValid();
    await user.click(submitButton());
    expect((await screen.findByRole("alert")).textContent).toMatch(message);
    expect(control("email").value).toBe(VALID.email);
    expect(theToast().textContent).toMatch(message);
    expect(screen.queryByTestId("find-pros-confirmation")).toBeNull();
  });

  it("a 400 puts the function's messages on the fields and focuses the first", async () => {
    api.on("POST", API, reply.json(400, { error: "Invalid request", fields: { email: MESSAGES.email } }));
    mount();
    await fillValid();
    await user.click(submitButton());
    await waitFor(() => expect(isInvalid(control("email"))).toBe(true));
    expect(document.activeElement).toBe(control("email"));
    expect(description(control("email"))).toBe(MESSAGES.email);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("a 400 naming no field of the form shows its message as the banner", async () => {
    api.on("POST", API, reply.json(400, { error: "Please check the form.", fields: { _form: "bad" } }));
    mount();
    await fillValid();
    await user.click(submitButton());
    expect((await screen.findByRole("alert")).textContent).toBe("Please check the form.");
  });

  it("a 413 is reported on the photo", async () => {
    api.on("POST", API, reply.json(413, { error: "Too large" }));
    mount();
    await fillValid();
    await user.click(submitButton());
    await waitFor(() => expect(description(control("photo"))).toBe(MESSAGES.photoTooLarge));
    expect(document.activeElement).toBe(control("photo"));
    expect(screen.queryByRole("alert")).toBeNull();
  });
});

describe("find pros: success", () => {
  it("sends multipart with an Idempotency-Key once, is busy meanwhile, then shows the matched pros", async () => {
    api.on("POST", API, reply.json(201, { ok: true, id: "lead_123", matches: MATCHES }));
    mount();
    await fillValid();
    choose(control("photo"), new File(["png"], "oak.png", { type: "image/png" }));
    const release = api.hold();
    await user.click(submitButton());
    const pending = screen.getByRole("button", { name: FIND_PROS_FORM.pending }) as HTMLButtonElement;
    expect(pending.disabled).toBe(true);
    expect(form().getAttribute("aria-busy")).toBe("true");
    // A second submit while the first is on its way sends nothing.
    form().requestSubmit();
    await act(async () => release());

    const done = await screen.findByTestId("find-pros-confirmation");
    const heading = within(done).getByRole("heading", { name: "Request received" });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    // The whole name: its first word is not always a name ("Find Pros Tester").
    expect(done.textContent).toContain("Thanks, Jordan Rivera.");
    expect(done.textContent).toContain("We've sent your request to 2 local pros");
    expect(done.textContent).toContain("within 24 hours");
    expect(screen.queryByRole("form", { name: FIND_PROS_FORM.title })).toBeNull();
    for (const match of MATCHES) {
      expect(within(done).getByRole("link", { name: match.name }).getAttribute("href")).toBe(
        `/directory/${match.slug}`,
      );
      const reviews = `${match.reviewCount} ${match.reviewCount === 1 ? "review" : "reviews"}`;
      expect(done.textContent).toContain(`${Number(match.rating).toFixed(1)} out of 5 stars (${reviews})`);
    }
    const call = within(done).getByRole("link", { name: `Call ${MATCHES[0].name} at ${MATCHES[0].phone}` });
    expect(call.getAttribute("href")).toBe("tel:+15125550142");
    expect(
      within(done)
        .getAllByTestId("match-distance")
        .map((d) => d.textContent),
    ).toEqual(["3.2 mi away"]);

    expect(api.calls).toHaveLength(1);
    const request = api.calls[0]!;
    expect(request.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{16,}$/i);
    expect(request.headers.get("accept")).toContain("application/json");
    // FormData: the browser writes the multipart boundary itself.
    expect(request.headers.get("content-type")).toBeNull();
    const body = request.body as FormData;
    expect(Object.fromEntries([...body].filter(([, v]) => typeof v === "string"))).toMatchObject({
      ...VALID,
      _source: PAGE,
      company_website: "",
    });
    expect(Number(body.get("_started"))).toBeGreaterThan(0);
    expect((body.get("photo") as File).name).toBe("oak.png");

    // Start another request: an empty form again.
    await user.click(within(done).getByRole("button", { name: "Start another request" }));
    expect(control("location").value).toBe("");
  });

  it('greets by the whole name ("Find Pros Tester" is not "Find") and a match without reviews has no "0.0"', async () => {
    const unrated = { name: "New Leaf Arbor", slug: "new-leaf-arbor-katy", rating: "0.0", reviewCount: 0 };
    api.on("POST", API, reply.json(201, { ok: true, id: "lead_128", matches: [unrated] }));
    mount();
    await fillValid({ ...VALID, name: "  Find   Pros Tester " });
    await user.click(submitButton());
    const done = await screen.findByTestId("find-pros-confirmation");
    expect(done.textContent).toContain("Thanks, Find Pros Tester.");
    expect(done.textContent).not.toContain("Thanks, Find.");
    expect(done.textContent).toContain("No reviews yet");
    expect(done.textContent).not.toContain("0.0");
    expect(done.querySelectorAll("[data-star]")).toHaveLength(0);
  });

  it("a 7 MB camera photo is made smaller in the browser (upright, 2048 px, JPEG) and sent under the limit", async () => {
    api.on("POST", API, reply.json(201, { ok: true, id: "lead_129", matches: MATCHES }));
    // The browser's decoder (EXIF orientation applied) and canvas, as the real codec uses them.
    const decode = vi.fn(async () => ({ width: 4032, height: 3024, close: vi.fn() }));
    vi.stubGlobal("createImageBitmap", decode);
    const drawn: number[][] = [];
    const context = { fillRect: vi.fn(), drawImage: (_: unknown, ...box: number[]) => drawn.push(box) };
    const getContext = vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue(context as never);
    const toBlob = vi
      .spyOn(HTMLCanvasElement.prototype, "toBlob")
      .mockImplementation((done, type) => done(new Blob([new Uint8Array(900_000)], { type })));
    try {
      mount();
      await fillValid();
      choose(control("photo"), new File([new Uint8Array(7 * 1024 * 1024)], "IMG_0412.HEIC", { type: "image/heic" }));
      await user.click(submitButton());
      await screen.findByTestId("find-pros-confirmation");
      expect(decode).toHaveBeenCalledWith(expect.any(File), { imageOrientation: "from-image" });
      expect(drawn).toEqual([[0, 0, 2048, 1536]]);
      expect(toBlob).toHaveBeenCalledWith(expect.any(Function), "image/jpeg", 0.85);
      const sent = (api.calls[0]!.body as FormData).get("photo") as File;
      expect([sent.name, sent.type, sent.size]).toEqual(["IMG_0412.jpg", "image/jpeg", 900_000]);
      expect(sent.size).toBeLessThanOrEqual(MAX_UPLOAD_BYTES);
    } finally {
      vi.unstubAllGlobals();
      getContext.mockRestore();
      toBlob.mockRestore();
    }
  });

  it("without a photo no empty file part is sent", async () => {
    api.on("POST", API, reply.json(201, { ok: true, id: "lead_125", matches: MATCHES.slice(1) }));
    mount();
    await fillValid();
    await user.click(submitButton());
    const done = await screen.findByTestId("find-pros-confirmation");
    expect(done.textContent).toContain("We've sent your request to a local pro");
    expect((api.calls[0]!.body as FormData).has("photo")).toBe(false);
  });

  it("no match: the confirmation says what happens next in the server's words", async () => {
    const message = "We'll match you with local pros by phone within 24 hours.";
    api.on("POST", API, reply.json(201, { ok: true, id: "lead_124", matches: [], message }));
    mount();
    await fillValid();
    await user.click(submitButton());
    const done = await screen.findByTestId("find-pros-confirmation");
    expect(done.textContent).toContain(message);
    expect(within(done).queryAllByRole("link")).toEqual([]);
  });

  it("shows the reference and its status link", async () => {
    api.on("POST", API, reply.json(201, { ok: true, id: "lead_126", matches: MATCHES, ...RECEIPT }));
    mount();
    await fillValid();
    await user.click(submitButton());
    const done = await screen.findByTestId("find-pros-confirmation");
    expect(done.textContent).toContain("within 24 hours");
    const receipt = within(done).getByTestId("lead-receipt");
    expect(within(receipt).getByText(RECEIPT.reference).tagName).toBe("STRONG");
    expect(within(receipt).getByRole("link", { name: RECEIPT_COPY.track }).getAttribute("href")).toBe(
      RECEIPT.statusUrl,
    );
    expect(within(done).queryByTestId("emergency-call")).toBeNull();
  });

  it.each([
    ["with matches", MATCHES],
    ["without matches", []],
  ])(
    "an emergency timeline, %s: the danger first, then our own line, never 24 hours or an arrival, whatever the server says",
    async (_, matches) => {
      // The reply's routine wording and urgency lose to the form's own emergency.
      const message = noMatchesMessage("routine");
      api.on("POST", API, reply.json(201, { ok: true, id: "lead_127", matches, message, ...RECEIPT }));
      mount();
      await fillValid({ ...VALID, timeline: "emergency" });
      await user.click(submitButton());
      const done = await screen.findByTestId("find-pros-confirmation");
      const text = done.textContent!;
      expect(text).not.toMatch(DAY_PROMISE);
      expect(text).not.toMatch(ARRIVAL_PROMISE);
      const call = within(done).getAllByRole("link")[0]!;
      expect(call.textContent).toBe(EMERGENCY_CONFIRMATION.call);
      expect(call.getAttribute("href")).toBe(SITE.phoneHref);
      expect(text.indexOf(DANGER_FIRST.hurt)).toBeLessThan(text.indexOf(DANGER_FIRST.lines));
      expect(text.indexOf(DANGER_FIRST.lines)).toBeLessThan(text.indexOf(SITE.phone));
      expect(text.indexOf(SITE.phone)).toBeLessThan(text.indexOf(RECEIPT.reference));
      if (matches.length === 0) expect(text).toContain(noMatchesMessage("emergency"));
    },
  );

  it("an emergency with the reply's offers says who has it now; with none near, who has it instead", async () => {
    const offers = {
      offered: 3,
      near: "33131",
      aroundTheClock: true,
      answerMinutes: 10,
      answerBy: "2026-11-28T20:10:00.000Z",
      timeZone: "America/New_York",
    };
    api.on("POST", API, reply.json(201, { ok: true, id: "lead_128", matches: MATCHES, offers, ...RECEIPT }));
    mount();
    await fillValid({ ...VALID, timeline: "emergency" });
    await user.click(submitButton());
    let done = await screen.findByTestId("find-pros-confirmation");
    expect(done.textContent).toContain(
      "Offered to 3 crews near 33131 that take emergencies now; each has 10 minutes to answer.",
    );
    expect(done.textContent).not.toMatch(ARRIVAL_PROMISE);

    await user.click(within(done).getByRole("button", { name: "Start another request" }));
    api.on(
      "POST",
      API,
      reply.json(201, {
        ok: true,
        id: "lead_129",
        matches: [],
        message: noMatchesMessage("emergency"),
        offers: { ...offers, offered: 0, answerMinutes: undefined, answerBy: undefined, toOperator: "no-pros" },
        ...RECEIPT,
      }),
    );
    await fillValid({ ...VALID, timeline: "emergency" });
    await user.click(submitButton());
    done = await screen.findByTestId("find-pros-confirmation");
    expect(within(done).getByTestId("offers-now").textContent).toBe(
      "No listed crew near 33131 takes emergencies right now: Treeline's team has your request and will call you.",
    );
  });

  it("a 2xx with an unreadable body still confirms (the request is stored), naming the place", async () => {
    api.on("POST", API, reply.malformed(201));
    mount();
    await fillValid();
    await user.click(submitButton());
    const done = await screen.findByTestId("find-pros-confirmation");
    expect(done.textContent).toContain("We couldn't match a listed pro in Austin right away.");
    expect(screen.queryByRole("alert")).toBeNull();
  });
});

describe("find pros: hydration", () => {
  it("the server's form is the no-JS form; what was typed before hydration stays, and novalidate marks the takeover", async () => {
    const container = document.createElement("div");
    container.innerHTML = renderToString(<FindProsForm source={PAGE} />);
    document.body.append(container);
    const server = container.querySelector("form")!;
    expect(server.getAttribute("action")).toBe(API);
    expect(server.getAttribute("method")).toBe("post");
    expect(server.getAttribute("enctype")).toBe("multipart/form-data");
    expect(server.hasAttribute("novalidate")).toBe(false);
    (server.elements.namedItem("location") as HTMLInputElement).value = "Dallas";
    (server.elements.namedItem("timeline") as HTMLSelectElement).value = "flexible";

    render(<FindProsForm source={PAGE} />, { container, hydrate: true });
    await waitFor(() => expect(form().hasAttribute("novalidate")).toBe(true));
    expect(control("location").value).toBe("Dallas");
    expect(control("timeline").value).toBe("flexible");
  });
});
