// `zetta console token create|list|revoke`: the access tokens the console accepts, kept in the skill
// store. create prints a new token once (the store keeps only its scrypt hash); list shows who has
// one, never a token or a hash; revoke removes one, and a running console ends its sessions at once.
import { resolve } from 'node:path';
import { printJsonLine, UsageError } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { db, existingDb, role, tokenName } from '../flags/skills.js';
import { json } from '../flags/table.js';
import type { TokenListing } from '../../console/server/index.js';

const CREATE_FLAGS = { db, name: tokenName, role, json: json.with({ help: 'last line: {"name", "role", "token"}' }) };

const LIST_FLAGS = {
  db: existingDb,
  json: json.with({ help: 'last line: {"tokens": [{"name", "role", "created_at", "last_used_at"}]}\n(last_used_at null when not known)' }),
};

const REVOKE_FLAGS = { db: existingDb, name: tokenName.with({ help: 'the token to revoke (as token list names it)' }) };

export const TOKEN_USAGE = `       zetta console token create --name N --role viewer|approver [--db FILE] [--json]
       zetta console token list [--db FILE] [--json]
       zetta console token revoke --name N [--db FILE]`;

export const TOKEN_HELP = `token create: a new token, printed once
${flagHelp(CREATE_FLAGS)}

token list: every token's name, role, creation and last use (never a token)
${flagHelp(LIST_FLAGS)}

token revoke: the token stops working, and the sessions it logged in end at once
${flagHelp(REVOKE_FLAGS)}`;

const SUBCOMMANDS: Record<string, (argv: readonly string[], help: string) => Promise<number>> = {
  create: createToken,
  list: listTokens,
  revoke: revokeToken,
};

/** `zetta console token …`; `help` is the console's --help, which documents these too. */
export async function tokenCommand(argv: readonly string[], help: string): Promise<number> {
  const [what, ...rest] = argv;
  if (what === '--help' || what === '-h') return printHelp(help);
  const run = what !== undefined && Object.hasOwn(SUBCOMMANDS, what) ? SUBCOMMANDS[what] : undefined;
  const names = Object.keys(SUBCOMMANDS).join(', ');
  if (!run) throw new UsageError(what === undefined ? `token needs a subcommand: ${names}` : `token ${what}: the subcommands are ${names}`);
  return run(rest, help);
}

async function createToken(argv: readonly string[], help: string): Promise<number> {
  const f = readFlags(argv, CREATE_FLAGS);
  if (f === 'help') return printHelp(help);
  const { createToken: create, isConsoleRole } = await import('../../console/server/index.js');
  if (!isConsoleRole(f.role)) throw new UsageError(`--role ${f.role}: must be viewer or approver`);
  const token = create(resolve(f.db), f.name, f.role);
  if (f.json) printJsonLine({ name: f.name, role: f.role, token });
  else {
    process.stdout.write(`${token}\n`);
    process.stderr.write(`token for ${f.name} (${f.role}): shown once, the store keeps only its hash\n`);
  }
  return 0;
}

async function listTokens(argv: readonly string[], help: string): Promise<number> {
  const f = readFlags(argv, LIST_FLAGS);
  if (f === 'help') return printHelp(help);
  const { listTokens: list } = await import('../../console/server/index.js');
  const tokens = list(resolve(f.db));
  if (tokens.length === 0) process.stderr.write(`no console tokens in ${resolve(f.db)} (zetta console token create makes one)\n`);
  else process.stdout.write(`${tokenTable(tokens)}\n`);
  if (f.json) printJsonLine({ tokens });
  return 0;
}

async function revokeToken(argv: readonly string[], help: string): Promise<number> {
  const f = readFlags(argv, REVOKE_FLAGS);
  if (f === 'help') return printHelp(help);
  const { revokeToken: revoke } = await import('../../console/server/index.js');
  // an unknown name, like a missing store, is the store's input error: one line, exit code 2
  const revoked = revoke(resolve(f.db), f.name);
  process.stderr.write(`revoked the token of ${revoked.name} (${revoked.role}): it and its sessions no longer work\n`);
  return 0;
}

/** name, role, created and last used in columns; a last use not known is "-". */
function tokenTable(tokens: readonly TokenListing[]): string {
  const rows = [['name', 'role', 'created', 'last used'], ...tokens.map((t) => [t.name, t.role, t.created_at, t.last_used_at ?? '-'])];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ')).join('\n');
}
