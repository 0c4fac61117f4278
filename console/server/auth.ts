// Who is asking, and may they. Every route says what it needs in its config (`access`: public,
// viewer or approver); one onRequest hook checks it, by the matched route rather than by the URL's
// text, so no spelling of a path (percent-encoding, dot segments) reaches an API route unchecked,
// and an /api route that forgot to say is refused, not opened.
//
// A request is authenticated by `Authorization: Bearer <token>` (scripts) or the session cookie
// (browsers). A session lives only while the token it logged in with is still in the store, looked
// up on each of its requests, so revoking a token ends its sessions at once. CSRF: a per-session
// synchronizer token, checked here, rather than @fastify/csrf-protection: sessions already live in
// our own map, so the token is one more random field of the session, compared in constant time with
// the `x-csrf-token` header of every state-changing request made with the cookie. A token from
// another session does not match; a bearer request needs none (a browser never attaches the header
// to a cross-site request). The Origin of state changes is checked before this (origin-check.ts).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../skills/store/open.js';
import { forbidden, unauthorized } from './api-error.js';
import { SESSION_COOKIE, tokenOfSession, type Session, type SessionStore } from './sessions.js';
import type { TokenCheck } from './token-check.js';
import { markTokenUsed, tokenStillStored, type MatchedToken, type TokenOwner } from './tokens.js';

export type Access = 'public' | 'viewer' | 'approver';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a caller needs for this route (auth.ts). */
    access?: Access;
  }
}

export interface Principal extends TokenOwner {
  readonly via: 'session' | 'bearer';
  /** The session a cookie named (null for a bearer token). */
  readonly session: Session | null;
  /** The stored token the caller got in with: a long answer (an event stream) ends when it is revoked. */
  readonly token: MatchedToken;
}

export interface AuthOptions {
  /** The store the tokens live in: a session's token is looked up there on each of its requests. */
  readonly db: Db;
  readonly sessions: SessionStore;
  /** Checks a bearer token, within its address's attempt budget (token-check.ts). */
  readonly check: TokenCheck;
  /** The address the server listens on: on a loopback address, only loopback Host names are served. */
  readonly host: string;
}

const principals = new WeakMap<FastifyRequest, Principal>();
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The caller the auth hook admitted (every non-public API route has one). */
export function principalOf(request: FastifyRequest): Principal {
  const p = principals.get(request);
  if (!p) throw unauthorized('log in, or send Authorization: Bearer <token>');
  return p;
}

export function installAuth(app: FastifyInstance, o: AuthOptions): void {
  const loopbackOnly = isLoopback(o.host);
  app.addHook('onRequest', async (request) => {
    if (loopbackOnly) checkHost(request);
    const access = request.routeOptions.config?.access;
    const route = request.routeOptions.url ?? '';
    if (access === 'public' || (access === undefined && !route.startsWith('/api'))) return;
    const principal = await authenticate(request, o);
    if (principal.via === 'session' && !SAFE_METHODS.has(request.method)) checkCsrf(request, principal.session!);
    if ((access ?? 'approver') === 'approver' && principal.role !== 'approver') {
      throw forbidden(`${principal.name} is a ${principal.role}; this needs an approver`);
    }
    principals.set(request, principal);
  });
}

async function authenticate(request: FastifyRequest, o: AuthOptions): Promise<Principal> {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw unauthorized('the Authorization header must be "Bearer <token>"');
    const owner = await o.check(request, m[1]!);
    if (!owner) throw unauthorized('unknown or invalid token');
    return { name: owner.name, role: owner.role, via: 'bearer', session: null, token: owner };
  }
  const session = o.sessions.get(request.cookies[SESSION_COOKIE]);
  if (!session) throw unauthorized('log in, or send Authorization: Bearer <token>');
  const token = tokenOfSession(session);
  if (!tokenStillStored(o.db, token)) {
    o.sessions.delete(session.id);
    throw unauthorized(`the token ${session.name} logged in with was revoked; log in with another`);
  }
  markTokenUsed(o.db, token);
  return { name: session.name, role: session.role, via: 'session', session, token };
}

function checkCsrf(request: FastifyRequest, session: Session): void {
  const sent = request.headers['x-csrf-token'];
  if (typeof sent !== 'string' || sent.length === 0) throw forbidden('missing x-csrf-token header (GET /api/session gives it)');
  const a = Buffer.from(sent);
  const b = Buffer.from(session.csrf);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw forbidden("the x-csrf-token header does not match this session's token");
}

// A page on another site can point its own DNS name at 127.0.0.1 (DNS rebinding) and then talk to
// us as "same origin"; its requests carry its name in Host, so on loopback only loopback names pass.
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

function checkHost(request: FastifyRequest): void {
  const name = request.hostname.toLowerCase();
  if (!LOOPBACK_NAMES.has(name) && !name.endsWith('.localhost') && !/^127(\.\d{1,3}){3}$/.test(name)) {
    throw forbidden(`this console serves only loopback host names, not "${request.hostname}"`);
  }
}

function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return LOOPBACK_NAMES.has(h) || /^127(\.\d{1,3}){3}$/.test(h);
}
