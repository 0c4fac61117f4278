// `zetta sim tasks | head`: when the reader closes the pipe early, zetta stops quietly (exit 0,
// nothing on stderr) instead of dying of an unhandled EPIPE with a stack trace.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../util/package-root.js';

describe('zetta writing into a pipe that closes early', () => {
  it('exits 0 without a stack trace', async () => {
    const child = spawn(process.execPath, [packagePath('bin', 'zetta.js'), 'sim', 'tasks'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.destroy(); // a reader that is gone before zetta writes, as `head` is once it has its lines
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
