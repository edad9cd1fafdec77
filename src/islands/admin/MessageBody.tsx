/**
 * A message in full: its delivery facts, the text as sent (its links followable), the e-mail's
 * HTML and the webhook's JSON. The HTML is shown in an iframe from `srcdoc`, sandboxed (no
 * scripts, no same origin, no forms): it is never put into the admin's own page. Its links
 * open in a new tab (a `<base target>` and the popup permissions), since the pages they lead
 * to (the answer page) refuse to be framed.
 */
import { MESSAGE_CHANNEL_LABELS } from "../../lib/admin-messages.ts";
import type { Message } from "../../lib/schemas/message.ts";
import { formatWhen } from "./api.ts";
import { isClaimId } from "../../lib/owners/choices.ts";

const URL_IN_TEXT = /(https?:\/\/[^\s<>"]+)/;

/**
 * The text with the site's own links as links (a status or answer page), so the operator can
 * follow them; any other address a visitor typed stays text. React escapes all of it.
 */
function Linked({ text }: { text: string }) {
  const own = (url: string) => url.startsWith(`${location.origin}/`);
  return text.split(URL_IN_TEXT).map((part, i) =>
    i % 2 === 1 && own(part) ? (
      <a key={i} href={part} target="_blank" rel="noreferrer noopener" className="link break-all">
        {part}
      </a>
    ) : (
      part
    ),
  );
}

/** The e-mail as it renders, its links opening outside the frame. */
const framed = (html: string) => `<base target="_blank">${html}`;

/** The webhook body, indented; as stored when it is not JSON. */
function pretty(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** `timeZone`: a lead's dialog says its times in the job's zone, labeled (formatWhen). */
export function MessageBody({ message: m, timeZone }: { message: Message; timeZone?: string }) {
  const facts: [string, string | undefined][] = [
    ["To", m.channel === "admin" ? "This admin only" : m.to],
    ["Channel", MESSAGE_CHANNEL_LABELS[m.channel]],
    ["Made", formatWhen(m.createdAt, timeZone)],
    ["Sent", m.sentAt ? formatWhen(m.sentAt, timeZone) : undefined],
    ["Attempts", String(m.attempts)],
    ["Next attempt", m.nextAttemptAt ? formatWhen(m.nextAttemptAt, timeZone) : undefined],
    ["Provider id", m.providerId],
    // A claim's messages (sign-in links, codes, decisions) file under the claim, not a lead.
    [isClaimId(m.leadId) ? "Claim" : "Lead", m.reference ?? m.leadId],
  ];
  return (
    <div className="mt-3 grid gap-3 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm">
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[8rem_minmax(0,1fr)]">
        {facts
          .filter((f): f is [string, string] => !!f[1])
          .map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="font-medium text-slate-600">{term}</dt>
              <dd className="break-all text-slate-900">{value}</dd>
            </div>
          ))}
      </dl>
      <div>
        <p className="font-semibold text-slate-800">{m.subject}</p>
        <pre className="mt-1 font-sans break-words whitespace-pre-wrap text-slate-900" data-testid="message-text">
          <Linked text={m.text} />
        </pre>
      </div>
      {m.html ? (
        <div>
          <p className="font-semibold text-slate-800">As the e-mail shows it</p>
          <iframe
            title={`E-mail: ${m.subject}`}
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={framed(m.html)}
            referrerPolicy="no-referrer"
            loading="lazy"
            className="mt-1 h-96 w-full rounded border border-slate-200 bg-white"
          />
        </div>
      ) : null}
      {m.payload ? (
        <div>
          <p className="font-semibold text-slate-800">Webhook body</p>
          <pre className="mt-1 max-h-64 overflow-auto text-xs break-words whitespace-pre-wrap text-slate-800">
            {pretty(m.payload)}
          </pre>
        </div>
      ) : null}
    </div>
  );
}
