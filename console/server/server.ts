// The operator console's server: the built front end and the JSON API on one fastify instance.
// One long-lived SkillStore serves every request (better-sqlite3 is synchronous, so requests take
// turns on it, and each lifecycle move is its own IMMEDIATE transaction); sessions are the only
// state kept outside the database. The caller listens: `await (await createConsoleServer(o)).listen()`.
import { resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { SkillStore } from '../../skills/store/skill-store.js';
import { installErrorHandler } from './api-error.js';
import { installAuth } from './auth.js';
import { AttemptBudget } from './attempt-budget.js';
import type { WorkBound } from './bounded-work.js';
import { liveRoutes, type LiveOptions } from './live.js';
import { installOriginCheck } from './origin-check.js';
import { runRoutes } from './run-routes.js';
import type { RunReportReader } from './run-reports.js';
import { registerSecurityHeaders } from './security-headers.js';
import { SessionStore } from './sessions.js';
import { sessionRoutes } from './session-routes.js';
import { skillRoutes } from './skill-routes.js';
import { tokenCheck } from './token-check.js';
import { registerWeb } from './web-static.js';

export interface ConsoleServerOptions {
  /** The skill store (tokens live in it too). */
  readonly db: string;
  /** The runs folder: campaigns, `zetta run` reports, episodes. */
  readonly runs: string;
  /**
   * How a `zetta run` report.json is read: its reader beside its writer (experiments/run/
   * run-report-reader.ts parseRunReport), which sits above the console and so is passed in.
   */
  readonly readRunReport: RunReportReader;
  /** The built front end (index.html and its assets). */
  readonly webRoot: string;
  /** The address the caller will listen on (default 127.0.0.1); on loopback, non-loopback Host names are refused. */
  readonly host?: string;
  readonly logger?: boolean;
  /** Failed checks of tokens (counted before the check) per client address and window, before 429 (default 5 a minute). */
  readonly loginAttempts?: { readonly max: number; readonly windowMs: number };
  /** How many token hashes run at once and wait, across all clients, before 503 (token-check.ts). */
  readonly tokenHashing?: WorkBound;
  /** Timings of GET /api/live (tests shorten them). */
  readonly live?: LiveOptions;
}

const BODY_LIMIT = 64 * 1024;

export async function createConsoleServer(o: ConsoleServerOptions): Promise<FastifyInstance> {
  const store = SkillStore.open(o.db);
  // On close, every connection is cut, not only idle ones: browsers (and fetch) hold open sockets
  // that never send a request, which would keep close() waiting. Handlers are short and each
  // lifecycle move commits or not as a whole, so nothing is left half done.
  const app = Fastify({ logger: o.logger ?? false, bodyLimit: BODY_LIMIT, forceCloseConnections: true });
  try {
    app.addHook('onClose', async () => store.close());
    await setUp(app, store, o);
    await app.ready();
    return app;
  } catch (err) {
    await app.close().catch(() => {});
    throw err;
  }
}

async function setUp(app: FastifyInstance, store: SkillStore, o: ConsoleServerOptions): Promise<void> {
  const runs = resolve(o.runs);
  // JSON bodies only: a cross-site form can post text/plain without a preflight, never JSON
  app.removeContentTypeParser('text/plain');
  installErrorHandler(app);
  await registerSecurityHeaders(app);
  await app.register(fastifyCookie);
  const sessions = new SessionStore();
  const budget = new AttemptBudget(o.loginAttempts ?? { max: 5, windowMs: 60_000 });
  const check = tokenCheck(store.db, budget, o.tokenHashing);
  installOriginCheck(app);
  installAuth(app, { db: store.db, sessions, check, host: o.host ?? '127.0.0.1' });
  sessionRoutes(app, { sessions, check });
  skillRoutes(app, store, runs);
  runRoutes(app, runs, o.readRunReport);
  liveRoutes(app, store.db, runs, o.live);
  await registerWeb(app, o.webRoot);
}
