/**
 * A server's embedded store in a process of its own, for the durability tests to kill, starve
 * of disk or take write access from: `node --import tsx durability-child.ts <file> <writers>
 * <compactMinBytes> [<stop after this many failed writes>]`.
 *
 * It prints `ready`, then `ack <id> <name>` for every lead whose create resolved and
 * `fail <name> <message>` for every one that was refused, from <writers> concurrent loops.
 * With a stop count it prints `writable <true|false>` and `listed <n>` after that many refusals
 * and exits; without one it writes until it is killed.
 */
import { createStore, lendEmbeddedBackend } from "../../../netlify/lib/store/index.ts";
import { EmbeddedBackend } from "../../../netlify/lib/store/transports/embedded.ts";

const [file, writersArg, compactArg, stopArg] = process.argv.slice(2);
if (!file || !writersArg || !compactArg)
  throw new Error("usage: durability-child.ts <file> <writers> <compactMinBytes> [stop]");
const writers = Number(writersArg);
const stopAfter = stopArg === undefined ? Infinity : Number(stopArg);

const backend = new EmbeddedBackend({ file, compactMinBytes: Number(compactArg), compactRatio: 0.5 });
lendEmbeddedBackend(backend);
const store = createStore({ transport: "embedded", prefix: "t:" });
const say = (line: string) => process.stdout.write(`${line}\n`);

let failures = 0;
say("ready");
await Promise.all(
  Array.from({ length: writers }, async (_, w) => {
    for (let i = 0; failures < stopAfter; i++) {
      const name = `w${w}-${i}`;
      try {
        const { lead } = await store.leads.create("quote", { name, note: "x".repeat(200) }, { sourcePage: "/" });
        say(`ack ${lead.id} ${name}`);
      } catch (error) {
        failures++;
        say(`fail ${name} ${(error as Error).message.replace(/\s+/g, " ")}`);
      }
    }
  }),
);
say(`writable ${await store.writable()}`);
say(`listed ${(await store.leads.list("quote", { limit: 100_000 })).items.length}`);
await backend.close();
