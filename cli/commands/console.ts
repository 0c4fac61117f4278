// `zetta console`: the operator console in a browser (console/), and `zetta console token
// create`, the access tokens it accepts. The server is another client of the skill store: every
// approval is the store's own transaction, audited with the token's name as the actor.
import { resolve } from 'node:path';
import { packagePath } from '../../util/package-root.js';
import { printJsonLine, UsageError, type Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { db, host, port, role, runsDir, tokenName } from '../flags/skills.js';
import { json } from '../flags/table.js';

const SERVE_FLAGS = { db: db.with({ help: 'the skill store (a SQLite file; created when missing)' }), runs: runsDir, port, host };

const TOKEN_FLAGS = { db, name: tokenName, role, json: json.with({ help: 'last line: {"name", "role", "token"}' }) };

const HELP = `usage: zetta console [--db FILE] [--runs DIR] [--port P] [--host H]
       zetta console token create --name N --role viewer|approver [--db FILE] [--json]

Serves the operator console: the three governance arms and synergy of every run, campaigns with
their clusters and candidates, each candidate's gate evidence, episodes replayed from their MCAP
recordings, and the skills, which an approver approves, rejects or retires with a reason. Every API
route needs a login with a token (the page shows only its login form until then); \`token create\`
prints a new one once (the store keeps only its scrypt hash). Stop the server with Ctrl-C.

${flagHelp(SERVE_FLAGS)}

token create:
${flagHelp(TOKEN_FLAGS)}`;

export const consoleCommand: Command = {
  name: 'console',
  summary: 'the operator console in a browser: runs, campaigns, episodes, and skill approval',
  help: HELP,
  async run(argv) {
    if (argv[0] === 'token') return createTokenCommand(argv.slice(1));
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

async function createTokenCommand(argv: readonly string[]): Promise<number> {
  const [what, ...rest] = argv;
  if (what === '--help' || what === '-h') return printHelp(HELP);
  if (what !== 'create') throw new UsageError(`zetta console token ${what ?? ''}: the only subcommand is create`);
  const f = readFlags(rest, TOKEN_FLAGS);
  if (f === 'help') return printHelp(HELP);
  const { createToken, isConsoleRole } = await import('../../console/server/index.js');
  if (!isConsoleRole(f.role)) throw new UsageError(`--role ${f.role}: must be viewer or approver`);
  const token = createToken(resolve(f.db), f.name, f.role);
  if (f.json) printJsonLine({ name: f.name, role: f.role, token });
  else {
    process.stdout.write(`${token}\n`);
    process.stderr.write(`token for ${f.name} (${f.role}): shown once, the store keeps only its hash\n`);
  }
  return 0;
}

function closedBySignal(): Promise<void> {
  return new Promise((resolveClosed) => {
    const stop = () => resolveClosed();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
