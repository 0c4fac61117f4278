// Browser sessions, in memory on purpose: the only state a restart loses (operators log in again;
// every decision they made is in the store's audit log already). A session id and its CSRF token
// are each 32 random bytes; a session ends 8 h after login, however busy it was.
import { randomBytes } from 'node:crypto';
import type { ConsoleRole } from './tokens.js';

export const SESSION_COOKIE = 'zetta_session';
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;

export interface Session {
  readonly id: string;
  readonly name: string;
  readonly role: ConsoleRole;
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

  create(name: string, role: ConsoleRole): Session {
    this.sweep();
    const session: Session = { id: random(), name, role, csrf: random(), expires: this.now() + this.ttlMs };
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

const random = (): string => randomBytes(32).toString('base64url');
