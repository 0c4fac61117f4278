// Without ROS 2 (no ROS_DISTRO; CI also has no rclnodejs), `zetta ros2` says in one line what is
// missing and how to get it, validates configs all the same, and nothing else loads rclnodejs.
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../cli/main.js';
import { simulatedRobotConfig } from './simulated-robot.js';

const ROOT = join(import.meta.dirname, '../../..');
const rclnodejsInstalled = (() => {
  const name = 'rclnodejs'; // resolved, not loaded: loading it needs a sourced ROS 2
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
})();
const dir = mkdtempSync(join(tmpdir(), 'zetta-ros2-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let stderr = '';
let stdout = '';
const distro = process.env.ROS_DISTRO;
beforeEach(() => {
  stderr = stdout = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
});
afterEach(() => {
  vi.restoreAllMocks();
  if (distro === undefined) delete process.env.ROS_DISTRO;
  else process.env.ROS_DISTRO = distro;
});

function configFile(raw: Record<string, unknown>): string {
  const path = join(dir, `node-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(raw));
  return path;
}

describe.skipIf(distro !== undefined)('zetta ros2 without ROS 2', () => {
  it('says in one line that no ROS 2 is sourced and how to get rclnodejs', async () => {
    const code = await main(['ros2', '--config', configFile(simulatedRobotConfig('spatial/left_cube_in_bowl'))]);
    expect(code).toBe(2);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /^zetta ros2: ROS 2 is not sourced \(ROS_DISTRO is unset\) and rclnodejs needs it: source \/opt\/ros\/humble\/setup\.bash \(or jazzy\), then run `npm install rclnodejs` and `npx generate-ros-messages`/,
    );
  });

  it.skipIf(rclnodejsInstalled)(
    `says in one line that rclnodejs is not installed when ROS 2 is sourced without it${rclnodejsInstalled ? ' (skipped: rclnodejs is installed here)' : ''}`,
    async () => {
      process.env.ROS_DISTRO = 'jazzy';
      const code = await main(['ros2', '--config', configFile(simulatedRobotConfig('spatial/left_cube_in_bowl'))]);
      expect(code).toBe(2);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(
        /^zetta ros2: rclnodejs is not installed: source \/opt\/ros\/jazzy\/setup\.bash, then run `npm install rclnodejs`/,
      );
    },
  );

  it('zetta sim-robot says in one line that no ROS 2 is sourced, and refuses an unknown task first', async () => {
    expect(await main(['sim-robot', '--task', 'spatial/left_cube_in_bowl', '--seed', '1000'])).toBe(2);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^zetta sim-robot: ROS 2 is not sourced \(ROS_DISTRO is unset\)/);
    stderr = '';
    expect(await main(['sim-robot', '--task', 'spatial/no_such_task', '--seed', '1000'])).toBe(2);
    expect(stderr).toMatch(/no_such_task/);
  });

  it('zetta sim-robot refuses a bad --camera or --gripper in one line (and the pointer to --help), before looking for ROS 2', async () => {
    const robot = ['sim-robot', '--task', 'spatial/left_cube_in_bowl', '--seed', '1000'];
    expect(await main([...robot, '--camera', '4x4'])).toBe(2);
    expect(stderr.trimEnd().split('\n')).toEqual([
      'zetta sim-robot: --camera must be WIDTHxHEIGHT with each side from 8 to 1024 (e.g. 128x128), or off; got "4x4"',
      '(see zetta sim-robot --help)',
    ]);
    stderr = '';
    expect(await main([...robot, '--gripper', 'service'])).toBe(2);
    expect(stderr.trimEnd().split('\n')[0]).toBe('zetta sim-robot: --gripper must be topic or action, got "service"');
    stdout = '';
    expect(await main(['sim-robot', '--help'])).toBe(0);
    expect(stdout).toMatch(/--camera WxH\|off/);
    expect(stdout).toMatch(/--gripper topic\|action/);
    expect(stdout).toMatch(/drawn from the simulator's geometry/);
  });

  it('refuses a bad config first, naming the field, and validates a good one with --check', async () => {
    const bad = configFile({ ...simulatedRobotConfig('spatial/left_cube_in_bowl'), control_hz: 'fast' });
    expect(await main(['ros2', '--config', bad])).toBe(2);
    expect(stderr).toMatch(/^zetta ros2: .*control_hz: /);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    stderr = '';
    expect(await main(['ros2', '--config', configFile(simulatedRobotConfig('spatial/left_cube_in_bowl')), '--check'])).toBe(0);
    expect(stdout).toMatch(/valid \(node zetta, 20 Hz, task spatial\/left_cube_in_bowl/);
  });

  it('refuses an unknown task and a goal object the perception does not report, before looking for ROS 2', async () => {
    const raw = simulatedRobotConfig('spatial/left_cube_in_bowl');
    expect(await main(['ros2', '--config', configFile({ ...raw, task: { id: 'spatial/no_such_task' } }), '--check'])).toBe(2);
    expect(stderr).toMatch(/^zetta ros2: task\.id: .*no_such_task/);
    stderr = '';
    const inputs = raw.inputs as Record<string, unknown>;
    const noBowl = {
      ...raw,
      inputs: { ...inputs, objects: { topic: '/objects', type: 'geometry_msgs/PoseArray', names: ['red_cube_1'] } },
    };
    expect(await main(['ros2', '--config', configFile(noBowl)])).toBe(2);
    expect(stderr.trimEnd()).toMatch(
      /^zetta ros2: inputs\.objects\.names: the goal of spatial\/left_cube_in_bowl names bowl, which are not among red_cube_1$/,
    );
  });

  it('is listed in zetta --help, and no module but the adapter imports rclnodejs', async () => {
    expect(await main(['--help'])).toBe(0);
    expect(stdout).toMatch(/ros2\s+run Zetta as a ROS 2 node/);
    const importers = sources(ROOT).filter((f) =>
      /from ['"]rclnodejs['"]|import\(['"]rclnodejs['"]\)|require\(['"]rclnodejs['"]\)/.test(readFileSync(f, 'utf8')),
    );
    expect(importers.map((f) => relative(ROOT, f))).toEqual([]);
  });
});

function sources(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === 'node_modules' || name === 'dist' || name === 'runs' || name.startsWith('.')) continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|js|mjs)$/.test(name)) out.push(p);
    }
  };
  walk(root);
  return out;
}
