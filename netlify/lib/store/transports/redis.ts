/**
 * A real Redis server (tests, CI, a local redis-server) through ioredis.
 */
import { Redis as IORedis } from "ioredis";
import type { CommandBackend, Reply } from "./requester.ts";

export class IORedisBackend implements CommandBackend {
  readonly scriptCache = "server" as const;
  private readonly client: IORedis;
  private inflight = 0;

  constructor(url: string, options: { timeoutMs: number }) {
    this.client = new IORedis(url, {
      lazyConnect: true,
      // A server that accepts the connection but never answers (frozen, or packets dropped)
      // fails the command after this long instead of holding the request.
      commandTimeout: options.timeoutMs,
      // A command fails after a couple of reconnect attempts instead of waiting for the server
      // indefinitely, so a request (and /api/health) gets an answer while Redis is down.
      maxRetriesPerRequest: 2,
      connectTimeout: options.timeoutMs,
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
    // Don't crash the process on connection errors; commands report them.
    this.client.on("error", () => {});
    this.client.on("ready", () => {
      if (this.inflight === 0) this.setRef(false);
    });
  }

  command(args: string[]): Promise<unknown> {
    const [name = "", ...rest] = args;
    return this.track(() => this.client.call(name, ...rest));
  }

  pipeline(commands: string[][]): Promise<Reply[]> {
    return this.track(async () => {
      const p = this.client.pipeline();
      for (const [name = "", ...rest] of commands) p.call(name, ...rest);
      return toReplies(await p.exec());
    });
  }

  transaction(commands: string[][]): Promise<Reply[]> {
    return this.track(async () => {
      const m = this.client.multi();
      for (const [name = "", ...rest] of commands) m.call(name, ...rest);
      try {
        return toReplies(await m.exec());
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return commands.map(() => ({ error: message }));
      }
    });
  }

  async close(): Promise<void> {
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  /**
   * An idle connection must not keep a process alive (a script or test that never calls
   * close(), a function runtime that waits for an empty event loop).
   */
  private async track<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inflight++ === 0) this.setRef(true);
    try {
      return await fn();
    } finally {
      if (--this.inflight === 0) this.setRef(false);
    }
  }

  private setRef(on: boolean): void {
    const stream = (this.client as unknown as { stream?: { ref?: () => void; unref?: () => void } }).stream;
    if (on) stream?.ref?.();
    else stream?.unref?.();
  }
}

function toReplies(results: [Error | null, unknown][] | null): Reply[] {
  if (!results) return [];
  return results.map(([error, result]) => (error ? { error: error.message } : { result }));
}
