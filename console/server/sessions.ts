// Browser sessions, in memory on purpose: the only state a restart loses (operators log in again;
// every decision they made is in the store's audit log already). A session id and its CSRF token
// are each 32 random bytes; a session ends 8 h after login, however busy it was, or as soon as the
// token it logged in with is revoked (it keeps that token's stored hash, which auth.ts checks).
import { randomBytes } from 'node:crypto';
import type { ConsoleRole, MatchedToken } from './tokens.js';

export const SESSION_COOKIE = 'zetta_session';
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;

export interface Session {
  readonly id: string;
  readonly name: string;
  readonly role: ConsoleRole;
  /** The stored hash of the token this session logged in with: the session lives while that row does. */
  readonly tokenHash: string;
  /** The synchronizer token every state-changing request of this session must echo. */
  readonly csrf: string;
  /** Epoch milliseconds after which the session is gone. */
  readonly expires: number;
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly ttlMs = SESSION_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new session for the owner of the token `matched` (what a login checked). */
  create(matched: MatchedToken): Session {
    this.sweep();
    const { name, role, hash: tokenHash } = matched;
    const session: Session = { id: random(), name, role, tokenHash, csrf: random(), expires: this.now() + this.ttlMs };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session `id` names, or null (unknown, or expired: then it is dropped). */
  get(id: string | undefined): Session | null {
    if (id === undefined) return null;
    const s = this.sessions.get(id);
    if (!s) return null;
    if (s.expires <= this.now()) {
      this.sessions.delete(id);
      return null;
    }
    return s;
  }

  delete(id: string): void {
    this.sessions.delete(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Drops expired sessions; run on every login, so the map never outgrows the live sessions by much. */
  private sweep(): void {
    const now = this.now();
    for (const [id, s] of this.sessions) if (s.expires <= now) this.sessions.delete(id);
  }
}

/** The token a session logged in with, as tokenStillStored checks it. */
export function tokenOfSession(s: Session): MatchedToken {
  return { name: s.name, role: s.role, hash: s.tokenHash };
}

const random = (): string => randomBytes(32).toString('base64url');
