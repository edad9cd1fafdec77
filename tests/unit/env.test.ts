import { afterEach, describe, expect, it, vi } from "vitest";
import { env, parseEnv } from "../../src/lib/env.ts";

/** parseEnv with its warnings collected. */
function parse(source: Record<string, string | undefined>) {
  const warnings: string[] = [];
  const config = parseEnv(source, (line) => warnings.push(line));
  return { config, warnings };
}

describe("parseEnv", () => {
  it("every variable is optional: the documented defaults", () => {
    const { config, warnings } = parse({});
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      siteUrl: "https://treeline.example",
      PORT: 8888,
      HOST: "127.0.0.1",
      REDIS_KEY_PREFIX: "treeline:",
      TREELINE_DATA_DIR: ".data",
      RATE_LIMIT_PER_MINUTE: 5,
      REVIEW_BUSINESS_LIMIT_PER_HOUR: 20,
      ADMIN_RATE_LIMIT_PER_MINUTE: 120,
      CHAT_RATE_LIMIT_PER_MINUTE: 12,
      CHAT_DAILY_TOKEN_BUDGET: 2_000_000,
      CHAT_CLIENT_BUDGET_PERCENT: 5,
      ANTHROPIC_MODEL: "claude-haiku-5-5",
      ANTHROPIC_BASE_URL: "https://api.anthropic.com",
      NWS_API_URL: "https://api.weather.gov",
      NOTIFY_EMAIL_TO: [],
      NOTIFY_EMAIL_FROM: "Treeline <onboarding@resend.dev>",
      RESEND_API_URL: "https://api.resend.com/emails",
      CHROME_PATH: "/usr/bin/chromium",
    });
    const unset = [
      "ANTHROPIC_API_KEY",
      "ADMIN_TOKEN",
      "REDIS_URL",
      "TREELINE_AUTO_SEED",
      "NOTIFY_WEBHOOK_URL",
    ] as const;
    for (const key of unset) expect(config[key], key).toBeUndefined();
  });

  it("blank is unset; values are trimmed", () => {
    const { config } = parse({ ANTHROPIC_API_KEY: "  ", ANTHROPIC_MODEL: " claude-x ", RATE_LIMIT_PER_MINUTE: "" });
    expect(config.ANTHROPIC_API_KEY).toBeUndefined();
    expect(config.ANTHROPIC_MODEL).toBe("claude-x");
    expect(config.RATE_LIMIT_PER_MINUTE).toBe(5);
  });

  it("the canonical origin: SITE_URL, else Netlify's URL, without a trailing slash", () => {
    expect(parse({ URL: "https://main--site.netlify.app/" }).config.siteUrl).toBe("https://main--site.netlify.app");
    expect(parse({ SITE_URL: "https://a.example/", URL: "https://b.example" }).config.siteUrl).toBe(
      "https://a.example",
    );
  });

  it("whole numbers: 0 allowed (limits off), digit grouping allowed, anything else is the default", () => {
    expect(parse({ CHAT_RATE_LIMIT_PER_MINUTE: "0" }).config.CHAT_RATE_LIMIT_PER_MINUTE).toBe(0);
    expect(parse({ CHAT_DAILY_TOKEN_BUDGET: "2_500,000" }).config.CHAT_DAILY_TOKEN_BUDGET).toBe(2_500_000);
    for (const junk of ["-3", "lots", "1.5", "1e3"])
      expect(parse({ ADMIN_RATE_LIMIT_PER_MINUTE: junk }).config.ADMIN_RATE_LIMIT_PER_MINUTE).toBe(120);
    expect(parse({ PORT: "70000" }).config.PORT).toBe(8888);
  });

  it("CHAT_CLIENT_BUDGET_PERCENT: above 0 up to 100, decimals allowed", () => {
    const percent = (v: string) => parse({ CHAT_CLIENT_BUDGET_PERCENT: v }).config.CHAT_CLIENT_BUDGET_PERCENT;
    expect(percent("0.5")).toBe(0.5);
    expect(percent("100")).toBe(100);
    expect(percent("0")).toBe(5);
    expect(percent("101")).toBe(5);
  });

  it("booleans: 1/true/yes/on and 0/false/no/off in any case; unset stays undecided", () => {
    for (const yes of ["1", "true", "YES", "On"])
      expect(parse({ TREELINE_AUTO_SEED: yes }).config.TREELINE_AUTO_SEED).toBe(true);
    for (const no of ["0", "false", "No", "OFF"])
      expect(parse({ TREELINE_AUTO_SEED: no }).config.TREELINE_AUTO_SEED).toBe(false);
    expect(parse({ TREELINE_AUTO_SEED: "maybe" }).config.TREELINE_AUTO_SEED).toBeUndefined();
  });

  it("comma lists drop blanks", () => {
    expect(parse({ NOTIFY_EMAIL_TO: " ops@x.test, ,boss@x.test," }).config.NOTIFY_EMAIL_TO).toEqual([
      "ops@x.test",
      "boss@x.test",
    ]);
  });

  it("an invalid value falls back to its default with one warning naming the variable, never the value", () => {
    const { config, warnings } = parse({
      RATE_LIMIT_PER_MINUTE: "secret-5",
      SITE_URL: "secret.example",
      NOTIFY_WEBHOOK_URL: "ftp://secret.example/hook",
      REDIS_URL: "http://secret:6379",
    });
    expect(config.RATE_LIMIT_PER_MINUTE).toBe(5);
    expect(config.siteUrl).toBe("https://treeline.example");
    expect(config.NOTIFY_WEBHOOK_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(warnings).toHaveLength(4);
    for (const key of ["RATE_LIMIT_PER_MINUTE", "SITE_URL", "NOTIFY_WEBHOOK_URL", "REDIS_URL"])
      expect(warnings.filter((w) => w.startsWith(`[env] ${key} `))).toHaveLength(1);
    expect(warnings.join("\n")).not.toContain("secret");
  });
});

describe("env()", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("is parsed once, and again only when one of its variables changes", () => {
    vi.stubEnv("RATE_LIMIT_PER_MINUTE", "7");
    const first = env();
    expect(first.RATE_LIMIT_PER_MINUTE).toBe(7);
    expect(env()).toBe(first);
    vi.stubEnv("RATE_LIMIT_PER_MINUTE", "8");
    expect(env().RATE_LIMIT_PER_MINUTE).toBe(8);
  });
});
