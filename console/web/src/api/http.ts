// The one way the console talks to its server. Same origin, JSON, the session in a cookie. Every
// POST but login carries the CSRF token the login (or session) answer gave us. Errors come back as
// `{ error: { code, message } }` and become an ApiError; a 401 anywhere but on login itself means
// the session is gone, so the app is told to show the login page.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let csrfToken: string | null = null;
let onUnauthorized: () => void = () => {};

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** The app registers what a lost session means (clear it, show the login page). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

interface RequestOptions {
  /** Login answers 401 for a bad token: that is the form's error, not a lost session. */
  readonly expectUnauthorized?: boolean;
}

async function request<T>(method: 'GET' | 'POST', path: string, body: unknown, options: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method === 'POST' && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, 'network', `cannot reach the console server: ${(err as Error).message}`);
  }
  const payload = await readJson(response);
  if (response.ok) return payload as T;
  const error = errorOf(payload, response);
  if (response.status === 401 && !options.expectUnauthorized) onUnauthorized();
  throw error;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorOf(payload: unknown, response: Response): ApiError {
  const e = (payload as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (e && typeof e.message === 'string') return new ApiError(response.status, typeof e.code === 'string' ? e.code : 'error', e.message);
  const fallback = typeof payload === 'string' && payload.length < 300 ? payload : response.statusText;
  return new ApiError(response.status, 'http', `${response.status} ${fallback || 'request failed'}`);
}

export function apiGet<T>(path: string): Promise<T> {
  return request<T>('GET', path, undefined, {});
}

export function apiPost<T>(path: string, body: unknown = {}, options: RequestOptions = {}): Promise<T> {
  return request<T>('POST', path, body, options);
}

/** A message fit to show an operator, whatever was thrown. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError)
    return err.status === 0 ? err.message : `${err.message} (${err.status}${err.code && err.code !== 'http' ? ` ${err.code}` : ''})`;
  return err instanceof Error ? err.message : String(err);
}
