// `zetta console`: the operator console in a browser (console/), and `zetta console token
// create|list|revoke`, the access tokens it accepts (console-token.ts). The server is another client
// of the skill store: every approval is the store's own transaction, audited with the token's name.
import { resolve } from 'node:path';
import { packagePath } from '../../util/package-root.js';
import type { Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { db, host, port, runsDir } from '../flags/skills.js';
import { TOKEN_HELP, TOKEN_USAGE, tokenCommand } from './console-token.js';

const SERVE_FLAGS = { db: db.with({ help: 'the skill store (a SQLite file; created when missing)' }), runs: runsDir, port, host };

const HELP = `usage: zetta console [--db FILE] [--runs DIR] [--port P] [--host H]
${TOKEN_USAGE}

Serves the operator console: the three governance arms and synergy of every run, campaigns with
their clusters and candidates, each candidate's gate evidence, episodes replayed from their MCAP
recordings, and the skills, which an approver approves, rejects or retires with a reason. Every API
route needs a login with a token (the page shows only its login form until then); \`token create\`
prints a new one once (the store keeps only its scrypt hash), \`token list\` shows who has one and
when it was last used, \`token revoke\` ends a token and every session it logged in, at once. A
state-changing request whose Origin is another site than the console is refused. Stop the server
with Ctrl-C.

${flagHelp(SERVE_FLAGS)}

${TOKEN_HELP}`;

export const consoleCommand: Command = {
  name: 'console',
  summary: 'the operator console in a browser: runs, campaigns, episodes, and skill approval',
  help: HELP,
  async run(argv) {
    if (argv[0] === 'token') return tokenCommand(argv.slice(1), HELP);
    const f = readFlags(argv, SERVE_FLAGS);
    if (f === 'help') return printHelp(HELP);
    const { createConsoleServer } = await import('../../console/server/index.js');
    // the run report's reader sits beside its writer in experiments/, above the console: handed in here
    const { parseRunReport } = await import('../../experiments/run/run-report-reader.js');
    const app = await createConsoleServer({
      db: resolve(f.db),
      runs: resolve(f.runs),
      webRoot: packagePath('dist', 'console-web'),
      host: f.host,
      readRunReport: parseRunReport,
    });
    const address = await app.listen({ host: f.host, port: f.port });
    process.stderr.write(
      `console at ${address} (skills from ${resolve(f.db)}, runs from ${resolve(f.runs)}); log in with a token from zetta console token create\n`,
    );
    // tests and scripts read the address from stdout
    process.stdout.write(`${address}\n`);
    await closedBySignal();
    await app.close();
    return 0;
  },
};

function closedBySignal(): Promise<void> {
  return new Promise((resolveClosed) => {
    const stop = () => resolveClosed();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
