/**
 * One-time clean-up of the message log: sign-in links and codes in messages that were sent (or
 * refused) before the log dropped them on sending. `node_modules/.bin/tsx
 * scripts/forget-sent-sign-ins.ts` with the production store's environment (REDIS_URL or the
 * Upstash variables). Safe to run twice.
 */
import { forgetSentSignIns } from "../netlify/lib/notify/owners.ts";
import { getStore } from "../netlify/lib/store/index.ts";

const store = getStore();
const { read, rewritten } = await forgetSentSignIns(store);
console.log(`message log: ${read} messages read, ${rewritten} rewritten without their sign-in link or code`);
await store.close();
