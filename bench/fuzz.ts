/**
 * npm run bench:fuzz [-- --runs N --seed S]: the endpoint fuzzer at full size (default
 * 12,000 cases) against the real handlers and the Redis at REDIS_URL (default
 * redis://127.0.0.1:6379), under a unique key prefix that is deleted afterwards. Prints
 * the counts per endpoint and status and every finding; exits 1 on a finding.
 */
import { formatCounts, fuzzRig, runFuzz } from "../tests/helpers/fuzz.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const numRuns = arg("runs", 12_000);
const seed = arg("seed", Date.now() % 2 ** 31);

const rig = await fuzzRig("bench-fuzz");
if (!rig) {
  console.error("No Redis answers at REDIS_URL / 127.0.0.1:6379; start redis-server.");
  process.exit(2);
}
// The store's Redis socket is unref'd while idle (for Netlify's workers): hold the loop open.
const keepAlive = setInterval(() => {}, 1_000);
const started = performance.now();
let stats;
try {
  stats = await runFuzz(rig, { seed, numRuns, onProgress: (n) => process.stderr.write(`\r${n} cases...`) });
} finally {
  await rig.teardown();
  clearInterval(keepAlive);
}
const seconds = (performance.now() - started) / 1000;
process.stderr.write("\n");
console.log(
  `bench:fuzz seed=${seed} cases=${stats.cases} in ${seconds.toFixed(1)} s (${Math.round(stats.cases / seconds)} cases/s)`,
);
console.log(formatCounts(stats));
console.log(
  `valid submissions: ${stats.validSubmissions} (${stats.replays} replayed with the same key), ` +
    `no-JS confirmations: ${stats.htmlSuccesses}, stored leads: ${stats.storedLeads}, stored reviews: ${stats.storedReviews}`,
);
const all = Object.values(stats.counts).flatMap((s) => Object.entries(s));
const fivexx = all.filter(([s]) => Number(s) >= 500).reduce((a, [, n]) => a + n, 0);
console.log(`5xx: ${fivexx}; findings: ${stats.failures.length}`);
for (const f of stats.failures) console.log(`  FINDING ${f}`);
process.exit(stats.failures.length ? 1 : 0);
