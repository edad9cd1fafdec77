/**
 * `node --import tsx seed-process.ts <out> <prefix> <seed file>`: seeds an embedded store
 * persisted to <out> and exits (see local.ts). Seeding runs hundreds of scripts through
 * ioredis-mock, which copies whole values and starts a Lua VM per script: hundreds of MB of
 * short-lived garbage whose heap a long-lived server would keep. A process gives it all back.
 */
import { createStore } from "./index.ts";

const [out, prefix, seedFile] = process.argv.slice(2);
if (!out || prefix === undefined || !seedFile) throw new Error("usage: seed-process.ts <out> <prefix> <seed file>");
const store = createStore({ transport: "embedded", file: out, prefix, seedFile });
await store.ready();
await store.close();
