import { register } from "tsx/esm/api";
register();
const mb = () => { global.gc(); const m = process.memoryUsage(); return `rss ${m.rss/1e6|0} heap ${m.heapUsed/1e6|0} total ${m.heapTotal/1e6|0}`; };
const { openLocalStore } = await import("/work/main/netlify/lib/store/local.ts");
console.log("before", mb());
let peak = 0; const iv = setInterval(() => { peak = Math.max(peak, process.memoryUsage().heapTotal); }, 20);
const t = performance.now();
await openLocalStore();
clearInterval(iv);
console.log("store", mb(), "peak heapTotal", peak/1e6|0, Math.round(performance.now()-t), "ms");
await new Promise(r => setTimeout(r, 8000));
console.log("2s later", mb());
import { readFileSync } from "node:fs";
const maps = readFileSync("/proc/self/smaps", "utf8").split("\n");
let cur = ""; const agg = new Map();
for (const line of maps) {
  if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) { cur = line.split(/\s+/).slice(5).join(" ") || "[anon]"; }
  else if (line.startsWith("Rss:")) { const kb = Number(line.split(/\s+/)[1]); agg.set(cur, (agg.get(cur) || 0) + kb); }
}
console.log([...agg].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${v >> 10}MB ${k}`).join("\n"));
