// Logging in and out. POST /api/login trades a token for a session cookie (HttpOnly, so page
// scripts never see it; SameSite=Strict, so other sites' pages never send it; Secure whenever the
// request came over TLS) and answers the session's CSRF token, which the page sends back as
// `x-csrf-token`. Tokens are checked within the client address's attempt budget (token-check.ts). Answers and
// the login body are the API contract's types.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { LoginAnswer, LoginBody, LogoutAnswer, Session } from '../contract/index.js';
import { badRequest, unauthorized } from './api-error.js';
import { principalOf } from './auth.js';
import { SESSION_COOKIE, SESSION_TTL_MS, type SessionStore } from './sessions.js';
import type { TokenCheck } from './token-check.js';

export interface SessionRouteOptions {
  readonly sessions: SessionStore;
  readonly check: TokenCheck;
}

export function sessionRoutes(app: FastifyInstance, o: SessionRouteOptions): void {
  app.post('/api/login', { config: { access: 'public' } }, async (request, reply): Promise<LoginAnswer> => {
    // the body is whatever the client sent: a LoginBody once its token is checked here
    const token = (request.body as Partial<Record<keyof LoginBody, unknown>> | undefined)?.token;
    if (typeof token !== 'string' || token.length === 0) throw badRequest('the body must be {"token": "<token>"}');
    const matched = await o.check(request, token);
    if (!matched) throw unauthorized('unknown or invalid token');
    const session = o.sessions.create(matched);
    setSessionCookie(reply, session.id);
    return { name: session.name, role: session.role, csrf: session.csrf };
  });

  app.post('/api/logout', { config: { access: 'viewer' } }, async (request, reply): Promise<LogoutAnswer> => {
    const p = principalOf(request);
    if (p.session) o.sessions.delete(p.session.id);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: true };
  });

  app.get('/api/session', { config: { access: 'viewer' } }, async (request): Promise<Session> => {
    const p = principalOf(request);
    return { name: p.name, role: p.role, csrf: p.session?.csrf ?? null };
  });
}

function setSessionCookie(reply: FastifyReply, id: string): void {
  reply.setCookie(SESSION_COOKIE, id, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: 'auto',
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}
