/** An assistant reply rendered from parsed markup: text nodes and vetted links only. */
import { Fragment } from "react";
import { parseMarkup, type Inline } from "../../lib/chat-markup.ts";

function Run({ run }: { run: Inline }) {
  if (run.type === "strong") return <strong className="font-semibold">{run.text}</strong>;
  if (run.type === "link") {
    return (
      <a href={run.href} className="font-medium text-forest-800 underline underline-offset-2 hover:text-forest-950">
        {run.text}
      </a>
    );
  }
  return <>{run.text}</>;
}

export function MessageText({ text }: { text: string }) {
  return (
    <>
      {parseMarkup(text).map((lines, p) => (
        // Plain wrapping: the site's `pretty` wrapping leaves ragged short lines in a narrow bubble.
        <p key={p} className="[text-wrap:wrap] [&+&]:mt-2">
          {lines.map((runs, l) => (
            <Fragment key={l}>
              {l > 0 ? <br /> : null}
              {runs.map((run, r) => (
                <Run key={r} run={run} />
              ))}
            </Fragment>
          ))}
        </p>
      ))}
    </>
  );
}
