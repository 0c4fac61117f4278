// Talking to the console in tests: logging in through inject, raw HTTP requests whose path no
// client library normalizes (for traversal attempts), and reading server-sent events.
import { request as httpRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';

export interface Login {
  readonly cookie: string;
  readonly csrf: string;
  readonly name: string;
  readonly role: string;
}

export async function login(app: FastifyInstance, token: string): Promise<Login> {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { token } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const c = res.cookies.find((x) => x.name === 'zetta_session');
  if (!c) throw new Error('login set no zetta_session cookie');
  const body = res.json() as { csrf: string; name: string; role: string };
  return { cookie: `zetta_session=${c.value}`, ...body };
}

/** A POST with the session cookie and (unless null) its CSRF header. */
export function post(app: FastifyInstance, url: string, s: Login, payload: unknown, csrf: string | null = s.csrf) {
  return app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: { cookie: s.cookie, ...(csrf === null ? {} : { 'x-csrf-token': csrf }) },
  });
}

export function get(app: FastifyInstance, url: string, s: Login | { bearer: string }) {
  const headers = 'bearer' in s ? { authorization: `Bearer ${s.bearer}` } : { cookie: s.cookie };
  return app.inject({ method: 'GET', url, headers });
}

/** GET with the path sent byte for byte as given (no URL parsing, no dot-segment removal). */
export function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
}

/** Reads an event stream's events as they come; `next(pred)` waits for the first that matches. */
export class SseReader {
  private buffer = '';
  private readonly events: SseEvent[] = [];
  private readonly comments: string[] = [];
  private readonly decoder = new TextDecoder();

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /** The first event (kept or to come) that matches; it is taken out. */
  async next(pred: (e: SseEvent) => boolean): Promise<SseEvent> {
    for (;;) {
      const found = this.events.findIndex(pred);
      if (found >= 0) return this.events.splice(found, 1)[0]!;
      await this.read();
    }
  }

  /** Waits for a comment line (`: text`). */
  async comment(text: string): Promise<void> {
    while (!this.comments.some((c) => c === `: ${text}`)) await this.read();
  }

  close(): Promise<void> {
    return this.reader.cancel();
  }

  private async read(): Promise<void> {
    const { value, done } = await this.reader.read();
    if (done) throw new Error('the event stream ended');
    this.absorb(this.decoder.decode(value, { stream: true }));
  }

  private absorb(text: string): void {
    this.buffer += text;
    let cut: number;
    while ((cut = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut + 2);
      if (block.startsWith(':')) this.comments.push(block);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data !== undefined) this.events.push({ event, data: JSON.parse(data) });
    }
  }
}
