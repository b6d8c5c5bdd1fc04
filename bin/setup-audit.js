#!/usr/bin/env node
// The CLI runs compiled: `npm run build` writes dist/ (the package ships it; npm pack builds it).
import { existsSync } from "node:fs";

const entry = new URL("../dist/src/cli/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    "setup-audit: it is not built (dist/ is missing).\nRun `npm run build` in setup-audit's folder, then run the command again.\n",
  );
  process.exit(3);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
