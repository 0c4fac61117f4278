// A client that sends and never reads: the policy server (`zetta serve-policy`, a real process of the
// built bin) must hold a bounded number of replies for it, whatever it sends. One DEALER sends
// hundreds of thousands of `hello` frames and reads nothing; the server's resident memory is read from
// /proc before, at its peak during, and after, and its growth is bounded relative to its own
// baseline. The server names the limit on its log when it starts dropping that peer's replies.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Dealer } from 'zeromq';
import { encodeMessage, PROTOCOL_VERSION } from '../../../protocol/messages.js';
import { awaitReadyLine } from '../../../util/child-process.js';
import { packagePath } from '../../../util/package-root.js';

const BIN = packagePath('bin', 'zetta.js');
const MODEL = packagePath('models', 'embedded-bc.onnx');
const HELLOS = 300_000;
const linux = process.platform === 'linux';

/** Resident and peak resident memory of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** CPU time the process has used, in clock ticks. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime
}

/** Resolves once the process has gone idle: it has worked through everything it was sent. */
async function untilIdle(pid: number): Promise<void> {
  let last = cpuTicks(pid);
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuTicks(pid);
    if (now - last <= 2) return;
    last = now;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

async function startServer(): Promise<{ child: ChildProcess; endpoint: string; log: () => string }> {
  const bind = `tcp://127.0.0.1:${await freePort()}`;
  const child = spawn(process.execPath, [BIN, 'serve-policy', '--onnx', MODEL, '--bind', bind], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const endpoint = await awaitReadyLine(
    child,
    (line) => / on (tcp:\/\/\S+)$/.exec(line)?.[1],
    60_000,
    (why) => new Error(`serve-policy ${why}: ${stderr}`),
  );
  return { child, endpoint, log: () => stderr };
}

/** A client that reads: a round trip proves the server has served everything queued before it. */
async function roundTrip(endpoint: string): Promise<void> {
  const reader = new Dealer({ linger: 0 });
  reader.connect(endpoint);
  await reader.send(encodeMessage({ type: 'hello', id: 1, protocol: PROTOCOL_VERSION }));
  await reader.receive();
  reader.close();
}

describe.skipIf(!linux)('a policy server under a client that never reads', () => {
  it('keeps its memory bounded and names the limit it drops replies at', async () => {
    const { child, endpoint, log } = await startServer();
    for (let i = 0; i < 20; i++) await roundTrip(endpoint); // warm: the baseline includes a served client
    const baseline = memoryOf(child.pid!).rss;

    const deaf = new Dealer({ linger: 0 });
    deaf.connect(endpoint);
    const hello = encodeMessage({ type: 'hello', id: 7, protocol: PROTOCOL_VERSION });
    for (let i = 0; i < HELLOS; i++) await deaf.send(hello);
    await untilIdle(child.pid!);
    await roundTrip(endpoint); // the server still answers a client that reads
    const during = memoryOf(child.pid!);
    deaf.close();
    await roundTrip(endpoint);
    await untilIdle(child.pid!);
    const after = memoryOf(child.pid!).rss;

    const line = `server RSS: baseline ${baseline.toFixed(0)} MB, peak ${during.peak.toFixed(0)} MB, with the deaf client ${during.rss.toFixed(0)} MB, after it left ${after.toFixed(0)} MB (${HELLOS} hellos unread)`;
    process.stdout.write(`${line}\n`);
    // Unbounded, the replies alone grow it by hundreds of MB (about 600 per million, more than three
    // times its baseline here) and it keeps them; bounded, it grows by less than its own baseline,
    // at its peak (garbage not yet collected included) as well.
    for (const mb of [during.rss, during.peak, after]) expect(mb - baseline, line).toBeLessThan(baseline);
    expect(log()).toMatch(
      /policy server: peer [0-9a-f]+ does not read its replies: \d+ dropped past its limit of 1000 waiting replies \(peerSendLimit\)/,
    );
  }, 180_000);
});
