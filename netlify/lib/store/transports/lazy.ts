/**
 * The command backend behind the Upstash client for the "redis" and "embedded" transports:
 * loaded on first use, or borrowed from the local server that lent its own.
 */
import type { CommandBackend, Reply } from "./requester.ts";

export type OwnedBackend = CommandBackend & { close(): Promise<void>; readonly file?: string };

/**
 * The local server's embedded backend, lent to every copy of this module it runs (the
 * functions it imports and the bundled on-demand page function each carry one), so all of
 * them share one store. A global, not a module variable, for that reason.
 */
const LENT = Symbol.for("treeline.embedded-backend");
type WithLent = typeof globalThis & { [LENT]?: OwnedBackend };

export function lendEmbeddedBackend(backend: OwnedBackend | undefined): void {
  (globalThis as WithLent)[LENT] = backend;
}

/** The backend the local server lent, if any. */
export function lentEmbeddedBackend(): OwnedBackend | undefined {
  return (globalThis as WithLent)[LENT];
}

/** Loads a transport module on first use, so production never loads ioredis or the mock. */
export class LazyBackend implements CommandBackend {
  private backend?: Promise<CommandBackend & { close(): Promise<void> }>;
  constructor(
    readonly scriptCache: "server" | "local",
    private readonly load: () => Promise<CommandBackend & { close(): Promise<void> }>,
  ) {}
  get(): Promise<CommandBackend & { close(): Promise<void> }> {
    this.backend ??= this.load();
    return this.backend;
  }
  async command(args: string[]): Promise<unknown> {
    return (await this.get()).command(args);
  }
  async pipeline(commands: string[][]): Promise<Reply[]> {
    return (await this.get()).pipeline(commands);
  }
  async transaction(commands: string[][]): Promise<Reply[]> {
    return (await this.get()).transaction(commands);
  }
  /** A lent backend belongs to the server that lent it: closing this store leaves it open. */
  borrowed = false;
  async close(): Promise<void> {
    if (this.backend && !this.borrowed) await (await this.backend).close();
  }
}
