// Logging in and out, and who is signed in: POST /api/login, POST /api/logout, GET /api/session.
// Part of the API contract (index.ts): no imports.

export type Role = 'viewer' | 'approver';

/** POST /api/login's body: an access token from `zetta console token create`. */
export interface LoginBody {
  readonly token: string;
}

/** GET /api/session: who is signed in; `csrf` is null for a bearer-token caller (no cookie, no CSRF). */
export interface Session {
  readonly name: string;
  readonly role: Role;
  /** What every state-changing request of this session sends back as `x-csrf-token`. */
  readonly csrf: string | null;
}

/** POST /api/login: the new session (its cookie is set alongside). */
export interface LoginAnswer extends Session {
  readonly csrf: string;
}

/** POST /api/logout. */
export interface LogoutAnswer {
  readonly ok: true;
}
