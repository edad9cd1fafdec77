/**
 * npm run seed [-- --sample] [path/to/businesses.json]
 * Loads the sample directory into whichever store the environment selects (see
 * netlify/lib/store/README.md); a Redis or Upstash store only with --sample (real businesses
 * come in with `npm run import`). The command is seed-command.ts's runSeed.
 */
import { runSeed } from "./seed-command.ts";

process.exitCode = await runSeed(process.argv.slice(2));
