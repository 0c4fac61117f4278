#!/usr/bin/env node
// The `zetta` command. The TypeScript sources are compiled to dist/ by `npm ci` (the prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('zetta: dist/ is missing; run `npm ci` (or `npm run build`) in the zetta checkout first\n');
  process.exit(2);
}
// `zetta sim tasks | head`: a reader that has seen enough closes the pipe; that is not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
