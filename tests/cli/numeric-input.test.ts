// Numbers on the command line (issue 37, items 6, 11 and 12): integer flags take plain decimal digits
// within a range, ports lie in 1–65535 (0 where it asks for any free port), and an env server's
// timeouts fit Node's timers. Anything else is refused naming the flag, the value and what is
// accepted, exit code 2, before anything runs (nothing is written, nothing listens).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runZetta } from '../support/zetta-process.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-numeric-'));

/** The error line (a usage error adds a pointer to --help on a line of its own). */
function refused(r: { code: number; stderr: string }, command: string): string {
  expect(r.code).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines.filter((l) => l.startsWith('zetta '))).toHaveLength(1);
  expect(lines.filter((l) => l !== `(see zetta ${command} --help)`)).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at |a fault in zetta/);
  return lines[0]!;
}

const evalRun = (...flags: string[]) =>
  runZetta(['eval', '--tasks', 'goal/press_button', '--no-record', '--out', join(dir, 'out'), ...flags]);

describe('integer flags', () => {
  it.each([
    [['--episodes', '1e9'], '--episodes must be an integer from 1 to 100000 in decimal digits, got "1e9"'],
    [['--episodes', '0x10'], '--episodes must be an integer from 1 to 100000 in decimal digits, got "0x10"'],
    [['--episodes', '100001'], '--episodes must be an integer from 1 to 100000 in decimal digits, got "100001"'],
    [['--seed', '1e20'], '--seed must be an integer from 0 to 2147483647 in decimal digits, got "1e20"'],
    [['--seed', '2147483648'], '--seed must be an integer from 0 to 2147483647 in decimal digits, got "2147483648"'],
    [['--workers', '1e3'], '--workers must be an integer from 1 to 256 in decimal digits, got "1e3"'],
    [['--envs-per-worker', '0x2'], '--envs-per-worker must be an integer from 1 to 256 in decimal digits, got "0x2"'],
    [['--execute-steps', '5.0'], '--execute-steps must be an integer from 1 to 1000 in decimal digits, got "5.0"'],
  ])('eval %j: one line, exit 2', async (flags, message) => {
    expect(refused(await evalRun('--episodes', '1', ...flags), 'eval')).toBe(`zetta eval: ${message}`);
  });

  it.each([
    [['--dev-episodes', '1e9'], '--dev-episodes must be an integer from 1 to 100000 in decimal digits, got "1e9"'],
    [['--generations', '0x10'], '--generations must be an integer from 1 to 1000 in decimal digits, got "0x10"'],
    [['--max-candidates', '1e2'], '--max-candidates must be an integer from 1 to 1000000 in decimal digits, got "1e2"'],
    [['--heldout-seeds', '99999999999999999999'], '--heldout-seeds 99999999999999999999: seeds must be integers from 0 to 2147483647'],
  ])('evolve %j: one line, exit 2', async (flags, message) => {
    const args = ['evolve', '--suite', 'goal', '--task', 'goal/press_button', '--root', join(dir, 'camp'), ...flags];
    expect(refused(await runZetta(args), 'evolve')).toBe(`zetta evolve: ${message}`);
  });
});

describe('ports', () => {
  it('serve-policy --bind with port 99999 is refused, not served on 34463', async () => {
    const r = await runZetta(['serve-policy', '--onnx', join(dir, 'none.onnx'), '--bind', 'tcp://127.0.0.1:99999']);
    expect(refused(r, 'serve-policy')).toBe(
      'zetta serve-policy: --bind tcp://127.0.0.1:99999: the port must be an integer from 0 (any free port) to 65535, got "99999"',
    );
  });

  it('console --port 99999 is refused', async () => {
    const r = await runZetta(['console', '--runs', dir, '--db', join(dir, 'skills.db'), '--port', '99999']);
    expect(refused(r, 'console')).toBe('zetta console: --port must be an integer from 0 to 65535 in decimal digits, got "99999"');
  });

  it('a policy server at port 99999 is refused', async () => {
    const r = await evalRun('--episodes', '1', '--policy', 'zmq://127.0.0.1:99999');
    expect(refused(r, 'eval')).toBe('zetta eval: "zmq://127.0.0.1:99999": the port must be an integer from 1 to 65535, got "99999"');
  });

  it('an env server at port 0 is refused', async () => {
    const r = await runZetta(['eval', '--env', 'zmq://127.0.0.1:0', '--suite', 's', '--no-record']);
    expect(refused(r, 'eval')).toMatch(/the port must be an integer from 1 to 65535, got "0"/);
  });
});

describe('an env server timeout beyond what a timer holds', () => {
  it.each(['timeout_ms=99999999999', 'reset_timeout_ms=2147483648'])('?%s: one line, exit 2, no wait', async (query) => {
    const r = await runZetta(['eval', '--env', `zmq://127.0.0.1:9?${query}`, '--suite', 's', '--no-record']);
    const key = query.split('=')[0];
    expect(refused(r, 'eval')).toMatch(new RegExp(`${key} must be an integer from 1 to 86400000 \\(ms\\), got "${query.split('=')[1]}"`));
  });
});
