// Bad input is one line on stderr and exit code 2: a policy spec that names nothing, a server that
// is not there, a missing model file, a negative count. Stack traces only with --verbose.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runZetta } from '../support/zetta-process.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-bad-'));

const zetta = (args: string[]) => runZetta(args);

const evalWith = (...extra: string[]) =>
  zetta(['eval', '--tasks', 'goal/press_button', '--episodes', '1', '--no-record', '--out', join(dir, 'out'), ...extra]);
const lines = (s: string) =>
  s
    .trim()
    .split('\n')
    .filter((l) => l !== '');

describe('zetta with bad input', () => {
  it.each([
    ['an unreachable server', ['--policy', 'zmq://127.0.0.1:1'], /tcp:\/\/127\.0\.0\.1:1 is unreachable: connection refused/],
    ['a missing ONNX file', ['--policy', 'onnx:/missing'], /"onnx:\/missing": no such file \/missing/],
    ['an unknown scheme', ['--policy', 'http://x'], /unknown policy "http:\/\/x"/],
  ])('eval with %s: one line, exit 2', async (_what, flags, message) => {
    const r = await evalWith(...flags);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('eval with a file that is not an ONNX model: one line, exit 2', async () => {
    const junk = join(dir, 'junk.onnx');
    writeFileSync(junk, 'not a model');
    const r = await evalWith('--policy', junk);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain(junk);
  });

  it('serve-policy with a missing model: one line, exit 2', async () => {
    const r = await zetta(['serve-policy', '--onnx', join(dir, 'nope.onnx'), '--bind', 'tcp://127.0.0.1:0']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain('no such file');
  });

  it.each([
    [['--skills', 'active'], /--from-scratch cannot take --skills active/],
    [['--skills-db', join(dir, 'other.db')], /--from-scratch keeps its skills in DIR\/skills\.db/],
  ])('run --from-scratch %j: nothing evolved before may enter, exit 2', async (flags, message) => {
    const r = await zetta(['run', '--from-scratch', '--out', join(dir, 'scratch'), ...flags]);
    expect(r.code).toBe(2);
    // the reason, then the pointer to --help that every usage error ends with
    expect(lines(r.stderr)).toEqual([expect.stringMatching(message), '(see zetta run --help)']);
  });

  it('--episodes -3 gets the range error, not a flag-parsing puzzle', async () => {
    const r = await zetta(['eval', '--suite', 'spatial', '--episodes', '-3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--episodes must be an integer from 1 to 100000 in decimal digits, got "-3"');
    expect(r.stderr).not.toContain('ambiguous');
  });

  it('--verbose adds the stack trace', async () => {
    const r = await evalWith('--policy', 'http://x', '--verbose');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/PolicySpecError[^\n]*\n\s+at /);
  });
});
