// The architecture check bites: the real dependency-cruiser, run with the project's own
// .dependency-cruiser.cjs and tsconfig.json on small fixture trees written to a temp dir, passes a
// tree whose every import points downward and fails (non-zero exit, each rule named) on a tree with
// one deliberate violation of every rule, type-only imports and a circle included.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const configPath = join(root, '.dependency-cruiser.cjs');
const depcruise = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Rule {
  name: string;
  comment?: string;
  severity?: string;
}
const config = createRequire(import.meta.url)(configPath) as { forbidden: Rule[] };
const ruleNames = config.forbidden.map((r) => r.name);

/** A module whose imports are `spec` (value import) or `type spec` (type-only import). */
function mod(...imports: string[]): string {
  const lines = imports.map((spec, i) =>
    spec.startsWith('type ') ? `import type * as t${i} from '${spec.slice(5)}';` : `import * as m${i} from '${spec}';`,
  );
  return [...lines, 'export type Marker = number;', 'export const marker = 1;', ''].join('\n');
}

type Tree = Record<string, string>;

/** Every import points downward or sideways within the rules; npm packages and builtins where allowed. */
const clean: Tree = {
  'cli/main.ts': mod('../experiments/run.js', '../bench/suite.js', '../skills/library.js', '../zinfra/ros2/node.js', '../zinfra/queue/worker.js', 'node:process'),
  'experiments/run.ts': mod('../skills/library.js', '../evolution/campaign.js', '../zinfra/runtime/loop.js'),
  'bench/suite.ts': mod('../zinfra/runtime/loop.js', '../critic/index.js', '../sim/tabletop/world.js', '../zinfra/policy/zmq/client.js'),
  'skills/library.ts': mod('../evolution/campaign.js', '../critic/index.js'),
  'evolution/campaign.ts': mod(
    '../zinfra/runtime/loop.js',
    '../zinfra/recording/writer.js',
    '../critic/index.js',
    'type ../sim/env.js',
    '../sim/world.js',
    '../sim/perturbation/schema.js',
    '../zinfra/atomic-write.js',
  ),
  'zinfra/runtime/loop.ts': mod(
    '../policy/policy.js',
    '../policy/open-policy.js',
    '../recording/writer.js',
    '../../critic/index.js',
    'type ../../sim/env.js',
    '../../sim/world.js',
    '../../sim/perturbation/schema.js',
    '../protocol/codec.js',
    '../child-process.js',
    'fake-pkg',
    'node:events',
  ),
  // beside the runtime: the ROS 2 node and the job queue reach worlds and policies through the ports
  'zinfra/ros2/node.ts': mod('../runtime/loop.js', '../policy/open-policy.js', '../recording/writer.js', '../../sim/world.js', 'fake-pkg'),
  'zinfra/queue/worker.ts': mod('../runtime/loop.js', '../policy/open-policy.js', '../../sim/world.js', 'fake-pkg'),
  'zinfra/recording/writer.ts': mod('type ../../sim/env.js', '../protocol/codec.js', '../atomic-write.js', 'node:fs'),
  'critic/index.ts': mod('./features.js', '../zinfra/protocol/codec.js', 'type ../zinfra/protocol/ndarray.js', 'fake-pkg', 'node:crypto'),
  'critic/features.ts': mod('../zinfra/protocol/ndarray.js'),
  'zinfra/policy/policy.ts': mod('../protocol/codec.js', '../package-root.js'),
  'zinfra/policy/open-policy.ts': mod('./policy.js', './zmq/client.js', './onnx/model.js'),
  'zinfra/policy/zmq/client.ts': mod('./queue.js', '../policy.js', '../../protocol/codec.js', '../../child-process.js', 'fake-pkg', 'node:net'),
  'zinfra/policy/zmq/queue.ts': mod('type ../policy.js'),
  'zinfra/policy/onnx/model.ts': mod('../policy.js', '../../seeded-random.js'),
  'sim/world.ts': mod('./env.js'),
  'sim/env.ts': mod('type ../zinfra/protocol/ndarray.js'),
  'sim/perturbation/schema.ts': mod('fake-pkg'),
  'sim/index.ts': mod('./tabletop/world.js'),
  'sim/tabletop/world.ts': mod('../world.js', '../env.js', '../perturbation/schema.js', '../../zinfra/protocol/ndarray.js', '../../zinfra/seeded-random.js', 'node:path'),
  'models/demos/index.ts': mod('../../zinfra/protocol/ndarray.js', '../../zinfra/atomic-write.js'),
  'zinfra/protocol/codec.ts': mod('./ndarray.js', 'fake-pkg'),
  'zinfra/protocol/ndarray.ts': mod('type fake-pkg'),
  'zinfra/atomic-write.ts': mod('node:fs'),
  'zinfra/child-process.ts': mod('node:child_process'),
  'zinfra/package-root.ts': mod('node:url'),
  'zinfra/seeded-random.ts': mod(),
};

/** One deliberate violation of every rule, as `rule: from → to` (what the err reporter prints). */
const violations: Array<[rule: string, from: string, to: string]> = [
  ['no-import-of-cli', 'skills/upward.ts', 'cli/main.ts'],
  ['no-upward-to-experiments', 'bench/upward.ts', 'experiments/run.ts'],
  ['bench-only-from-the-top', 'models/upward.ts', 'bench/suite.ts'],
  ['critic-only-critic-and-protocol', 'critic/upward.ts', 'sim/env.ts'], // a type-only import
  ['critic-only-critic-and-protocol', 'critic/upward.ts', 'zinfra/policy/policy.ts'],
  ['sim-only-sim-protocol-utilities', 'sim/tabletop/upward.ts', 'critic/index.ts'],
  ['protocol-only-protocol', 'zinfra/protocol/upward.ts', 'zinfra/seeded-random.ts'],
  ['protocol-only-protocol', 'zinfra/protocol/upward.ts', 'fs'], // a node builtin (reported without node:)
  ['policy-only-policy-protocol-utilities', 'zinfra/policy/upward.ts', 'sim/env.ts'],
  ['policy-adapter-not-to-other-adapter', 'zinfra/policy/zmq/upward.ts', 'zinfra/policy/onnx/model.ts'],
  ['runtime-recording-not-upward', 'zinfra/recording/upward.ts', 'models/demos/index.ts'],
  ['runtime-recording-not-upward', 'zinfra/runtime/upward.ts', 'evolution/campaign.ts'],
  ['runtime-recording-not-to-world-adapter', 'zinfra/runtime/upward.ts', 'sim/tabletop/world.ts'],
  ['runtime-recording-not-to-world-adapter', 'zinfra/runtime/upward.ts', 'sim/index.ts'], // a type-only import
  ['runtime-recording-not-to-policy-adapter', 'zinfra/runtime/upward.ts', 'zinfra/policy/zmq/client.ts'],
  ['ros2-not-upward', 'zinfra/ros2/upward.ts', 'evolution/campaign.ts'],
  ['ros2-only-observed-world-parts', 'zinfra/ros2/upward.ts', 'sim/tabletop/world.ts'],
  ['ros2-not-to-policy-adapter', 'zinfra/ros2/upward.ts', 'zinfra/policy/zmq/client.ts'],
  ['nothing-below-imports-ros2', 'zinfra/runtime/upward.ts', 'zinfra/ros2/node.ts'],
  ['queue-not-upward', 'zinfra/queue/upward.ts', 'skills/library.ts'],
  ['queue-not-to-adapters', 'zinfra/queue/upward.ts', 'sim/tabletop/world.ts'],
  ['queue-not-to-adapters', 'zinfra/queue/upward.ts', 'zinfra/policy/zmq/client.ts'],
  ['only-the-top-imports-queue', 'skills/upward.ts', 'zinfra/queue/worker.ts'],
  ['evolution-not-upward', 'evolution/upward.ts', 'skills/library.ts'],
  ['evolution-not-to-world-adapter', 'evolution/upward.ts', 'sim/index.ts'],
  ['skills-not-upward', 'skills/upward.ts', 'experiments/run.ts'],
  ['no-upward-to-experiments', 'skills/upward.ts', 'experiments/run.ts'], // the same import, both rules
  ['no-unresolvable', 'cli/upward.ts', './missing.js'],
];

const violating: Tree = {
  ...clean,
  'skills/upward.ts': mod('../cli/main.js', '../experiments/run.js', '../zinfra/queue/worker.js'),
  'zinfra/ros2/upward.ts': mod('../../evolution/campaign.js', '../../sim/tabletop/world.js', '../policy/zmq/client.js'),
  'zinfra/queue/upward.ts': mod('../../skills/library.js', '../../sim/tabletop/world.js', '../policy/zmq/client.js'),
  'bench/upward.ts': mod('../experiments/run.js'),
  'models/upward.ts': mod('../bench/suite.js'),
  'critic/upward.ts': mod('type ../sim/env.js', '../zinfra/policy/policy.js'),
  'sim/tabletop/upward.ts': mod('../../critic/index.js'),
  'zinfra/protocol/upward.ts': mod('../seeded-random.js', 'node:fs'),
  'zinfra/policy/upward.ts': mod('../../sim/env.js'),
  'zinfra/policy/zmq/upward.ts': mod('../onnx/model.js'),
  'zinfra/recording/upward.ts': mod('../../models/demos/index.js'),
  'zinfra/runtime/upward.ts': mod('../../evolution/campaign.js', '../../sim/tabletop/world.js', 'type ../../sim/index.js', '../policy/zmq/client.js', '../ros2/node.js'),
  'evolution/upward.ts': mod('../skills/library.js', '../sim/index.js'),
  'cli/upward.ts': mod('./missing.js'),
  // A circle inside one layer, half of it type-only.
  'critic/rules/a.ts': mod('./b.js'),
  'critic/rules/b.ts': mod('type ./a.js'),
};

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Writes the tree, the project's tsconfig.json and a tiny npm package into a fresh temp dir. */
function writeTree(tree: Tree): string {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-depcheck-'));
  dirs.push(dir);
  const files: Tree = {
    ...tree,
    'package.json': JSON.stringify({ name: 'fixture', type: 'module', dependencies: { 'fake-pkg': '1.0.0' } }),
    'node_modules/fake-pkg/package.json': JSON.stringify({ name: 'fake-pkg', version: '1.0.0', type: 'module', main: 'index.js' }),
    'node_modules/fake-pkg/index.js': 'export const value = 1;\n',
    // Excluded from the checked set: an upward import in a test is not an architecture violation.
    'tests/critic/upward.test.ts': mod('../../sim/tabletop/world.js', '../../cli/main.js'),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  copyFileSync(join(root, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  return dir;
}

/** Runs the CLI as `npm run depcheck` does (config and `.`), in `dir`. */
async function depcheck(dir: string): Promise<{ code: number; output: string }> {
  const args = [depcruise, '--config', configPath, '--output-type', 'err', '.'];
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: dir, timeout: 60_000 });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, output: (e.stdout ?? '') + (e.stderr ?? '') };
  }
}

/** `rule: from → to` for each reported violation (a circle reports its first hop). */
function reported(output: string): string[] {
  return [...output.matchAll(/^\s*error (\S+): (\S+) →\s*(\S*)$/gm)].map((m) => `${m[1]}: ${m[2]} → ${m[3]}`);
}

describe('the architecture check (dependency-cruiser)', () => {
  it('says every rule in words, as an error', () => {
    expect(ruleNames.length).toBeGreaterThan(10);
    expect(new Set(ruleNames).size).toBe(ruleNames.length);
    for (const rule of config.forbidden) {
      expect(rule.comment, rule.name).toMatch(/\w+ \w+ \w+/);
      expect(rule.severity, rule.name).toBe('error');
    }
  });

  it('passes a tree whose imports all point downward', async () => {
    const { code, output } = await depcheck(writeTree(clean));
    expect(output).toMatch(/no dependency violations found/);
    expect(code).toBe(0);
  });

  it('fails on an upward import and on a circle, naming every rule broken', async () => {
    const { code, output } = await depcheck(writeTree(violating));
    const lines = reported(output);
    expect(code).not.toBe(0);
    // The circle, whichever of its two modules the report starts from.
    expect(output).toMatch(/error no-circular: critic\/rules\/[ab]\.ts →\s*\n\s*critic\/rules\/[ab]\.ts →\s*\n\s*critic\/rules\/[ab]\.ts/);
    const expected = violations.map(([rule, from, to]) => `${rule}: ${from} → ${to}`);
    expect(lines.filter((l) => !l.startsWith('no-circular:')).sort()).toEqual(expected.sort());
    expect(lines.filter((l) => l.startsWith('no-circular:'))).toHaveLength(1);
    // Every rule in the config bit at least once, and nothing in tests/ was judged.
    expect(new Set(lines.map((l) => l.split(':')[0]))).toEqual(new Set(ruleNames));
    expect(output).not.toMatch(/tests\//);
  });
});
