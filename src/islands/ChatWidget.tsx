/**
 * The floating chat assistant on every page (spec sections 2 and 4), mounted with
 * `client:chat`: the server renders only the round launcher, and nothing of this island
 * (nor React) downloads until a visitor reaches for it. The launcher is a link to
 * /contact, so without JavaScript it still leads somewhere useful.
 *
 * On mount it restores this tab's conversation, opens the panel if the launcher was
 * tapped while the island loaded, or brings back a panel left open on the previous page
 * (minimised on phones, so the page the visitor navigated to is what they see).
 */
import { useStore } from "@nanostores/react";
import { useEffect, useRef, type MouseEvent } from "react";
import { chatQueue } from "../integrations/chat-queue.ts";
import { CHAT_OPEN_KEY, CHAT_TITLE } from "../lib/chat.ts";
import { $chatView, closeChat, minimiseChat, openChat, persistChat, restoreChat } from "../lib/stores/chat.ts";
import { ChatPanel } from "./chat/ChatPanel.tsx";
import { Icon } from "./Icon.tsx";

/** Where focus goes once the view has changed. */
type FocusIntent = "panel" | "launcher" | null;

export default function ChatWidget() {
  const view = useStore($chatView);
  const launcherRef = useRef<HTMLAnchorElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const focusNext = useRef<FocusIntent>(null);

  useEffect(() => {
    const left = restoreChat();
    const queue = chatQueue();
    if (queue.open) {
      focusNext.current = "panel";
      openChat();
    } else if (left !== "closed") {
      $chatView.set(left === "open" && !matchMedia("(min-width: 40rem)").matches ? "minimised" : left);
    }
    queue.open = false;
    queue.ready = true;
    const stopSaving = persistChat();
    return () => {
      stopSaving();
      queue.ready = false;
    };
  }, []);

  useEffect(() => {
    // Only once the view it was meant for is on screen (the mount effect asks before the panel exists).
    const target = focusNext.current;
    if (target === "launcher" && view === "closed") {
      focusNext.current = null;
      launcherRef.current?.focus();
    } else if (target === "panel" && view === "open") {
      focusNext.current = null;
      // On touch screens focusing the textarea would throw the keyboard over the panel before
      // the visitor has read it; focus the panel itself there.
      if (matchMedia("(pointer: fine)").matches) inputRef.current?.focus();
      else panelRef.current?.focus();
    }
  }, [view]);

  const onLaunch = (event: MouseEvent) => {
    // Modified clicks keep their browser meaning (the contact page in a new tab).
    if (event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    focusNext.current = "panel";
    openChat();
  };
  const restore = () => {
    focusNext.current = "panel";
    openChat();
  };
  const close = () => {
    focusNext.current = "launcher";
    closeChat();
  };

  if (view === "closed") {
    return (
      <a
        ref={launcherRef}
        href="/contact"
        onClick={onLaunch}
        data-chat-launcher=""
        data-restore={CHAT_OPEN_KEY}
        aria-haspopup="dialog"
        className={[
          "fixed right-4 bottom-4 z-[45] inline-flex size-14 items-center justify-center rounded-full bg-forest-700 text-white no-underline shadow-lift",
          "transition-transform hover:scale-105 hover:bg-forest-800 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-amber-400 motion-reduce:transition-none",
          // Keeps the site's toasts (bottom right from sm up) above the launcher.
          "sm:[html:has(&)_#notifications]:bottom-[4.5rem]",
        ].join(" ")}
      >
        <Icon name="chat" className="size-7" />
        <span className="sr-only">Chat with our {CHAT_TITLE}</span>
      </a>
    );
  }
  return <ChatPanel view={view} onMinimise={minimiseChat} onRestore={restore} onClose={close} panelRef={panelRef} inputRef={inputRef} />;
}
