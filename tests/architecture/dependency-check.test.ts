// The architecture check bites: the real dependency-cruiser, run with the project's own
// .dependency-cruiser.cjs and tsconfig.json on small fixture trees written to a temp dir, passes a
// tree whose every import points downward and fails (non-zero exit, each rule named) on a tree with
// one upward import from every floor, one sideways import on every shared floor and one deliberate
// violation of every other rule (type-only imports and a circle included).
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
const config = createRequire(import.meta.url)(configPath) as { forbidden: Rule[]; FLOORS: string[][] };
const ruleNames = config.forbidden.map((r) => r.name);
const floors = config.FLOORS;

/** A module whose imports are `spec` (value import) or `type spec` (type-only import). */
function mod(...imports: string[]): string {
  const lines = imports.map((spec, i) =>
    spec.startsWith('type ') ? `import type * as t${i} from '${spec.slice(5)}';` : `import * as m${i} from '${spec}';`,
  );
  return [...lines, 'export type Marker = number;', 'export const marker = 1;', ''].join('\n');
}

type Tree = Record<string, string>;

/** Every import points to its own folder or a floor below, adapters reached only from the top. */
const clean: Tree = {
  'bin/zetta.ts': mod('../cli/main.js'),
  'cli/main.ts': mod(
    '../experiments/run.js',
    '../bench/suite.js',
    '../console/server.js',
    '../zinfra/ros2/node.js',
    '../zinfra/queue/worker.js',
    '../sim/tabletop/world.js',
    '../zinfra/policy/zmq/client.js',
    '../critic/index.js',
    'node:process',
  ),
  'experiments/run.ts': mod('../bench/suite.js', '../skills/library.js', '../measure/arms.js', '../sim/tabletop/world.js'),
  'bench/suite.ts': mod(
    '../zinfra/runtime/loop.js',
    '../critic/index.js',
    '../sim/tabletop/world.js',
    '../zinfra/policy/zmq/client.js',
    '../models/demos/index.js',
  ),
  'console/server.ts': mod('../skills/library.js', '../evolution/campaign.js', '../zinfra/recording/writer.js'),
  'skills/library.ts': mod('../evolution/campaign.js', '../critic/index.js', '../measure/arms.js'),
  'evolution/campaign.ts': mod(
    '../measure/arms.js',
    '../zinfra/runtime/loop.js',
    '../zinfra/recording/writer.js',
    '../critic/index.js',
    'type ../sim/env.js',
    '../sim/world.js',
    '../sim/perturbation/schema.js',
    '../util/atomic-write.js',
  ),
  'measure/arms.ts': mod('../zinfra/runtime/loop.js', '../protocol/codec.js'),
  'models/demos/index.ts': mod('../../sim/tabletop/world.js', '../../protocol/ndarray.js', '../../util/atomic-write.js'),
  'zinfra/ros2/node.ts': mod(
    '../runtime/loop.js',
    '../policy/open-policy.js',
    '../recording/writer.js',
    '../../sim/world.js',
    '../../critic/index.js',
    'fake-pkg',
  ),
  'zinfra/queue/worker.ts': mod('../runtime/loop.js', '../policy/open-policy.js', '../../sim/world.js', 'fake-pkg'),
  'zinfra/runtime/loop.ts': mod(
    '../policy/policy.js',
    '../policy/open-policy.js',
    '../recording/writer.js',
    '../../critic/index.js',
    'type ../../sim/env.js',
    '../../sim/world.js',
    '../../sim/perturbation/schema.js',
    '../../protocol/codec.js',
    '../../util/child-process.js',
    'fake-pkg',
    'node:events',
  ),
  'zinfra/recording/writer.ts': mod(
    'type ../../sim/env.js',
    '../../critic/index.js',
    '../../protocol/codec.js',
    '../../util/atomic-write.js',
    'node:fs',
  ),
  'zinfra/policy/policy.ts': mod('../../protocol/codec.js', '../../util/package-root.js'),
  'zinfra/policy/open-policy.ts': mod('./policy.js', './zmq/client.js', './onnx/model.js'),
  'zinfra/policy/zmq/client.ts': mod(
    './queue.js',
    '../policy.js',
    '../../../protocol/codec.js',
    '../../../util/child-process.js',
    'fake-pkg',
    'node:net',
  ),
  'zinfra/policy/zmq/queue.ts': mod('type ../policy.js'),
  'zinfra/policy/onnx/model.ts': mod('../policy.js', '../../../util/seeded-random.js'),
  'critic/index.ts': mod('./features.js', '../protocol/codec.js', 'type ../protocol/ndarray.js', 'fake-pkg', 'node:crypto'),
  'critic/features.ts': mod('../protocol/ndarray.js'),
  'sim/world.ts': mod('./env.js'),
  'sim/env.ts': mod('type ../protocol/ndarray.js'),
  'sim/worlds.ts': mod('./world.js', './tabletop/world.js', './point-mass/world.js'),
  'sim/index.ts': mod('./world.js', './worlds.js'),
  'sim/perturbation/schema.ts': mod('fake-pkg'),
  'sim/math/quat.ts': mod(),
  'sim/tabletop/world.ts': mod(
    '../world.js',
    '../env.js',
    '../perturbation/schema.js',
    '../math/quat.js',
    '../../protocol/ndarray.js',
    '../../util/seeded-random.js',
    'node:path',
  ),
  'sim/point-mass/world.ts': mod('../world.js', '../math/quat.js'),
  'protocol/codec.ts': mod('./ndarray.js', 'fake-pkg'),
  'protocol/ndarray.ts': mod('type fake-pkg'),
  'util/atomic-write.ts': mod('node:fs'),
  'util/child-process.ts': mod('node:child_process'),
  'util/package-root.ts': mod('node:url'),
  'util/seeded-random.ts': mod(),
};

/** One module of each folder that imports nothing it should not (the target of a deliberate upward import). */
const representative: Record<string, string> = {
  bin: 'bin/zetta.ts',
  cli: 'cli/main.ts',
  experiments: 'experiments/run.ts',
  bench: 'bench/suite.ts',
  console: 'console/server.ts',
  skills: 'skills/library.ts',
  evolution: 'evolution/campaign.ts',
  measure: 'measure/arms.ts',
  models: 'models/demos/index.ts',
  'zinfra/ros2': 'zinfra/ros2/node.ts',
  'zinfra/queue': 'zinfra/queue/worker.ts',
  'zinfra/runtime': 'zinfra/runtime/loop.ts',
  'zinfra/recording': 'zinfra/recording/writer.ts',
  'zinfra/policy': 'zinfra/policy/policy.ts',
  critic: 'critic/index.ts',
  sim: 'sim/world.ts',
  protocol: 'protocol/codec.ts',
  util: 'util/atomic-write.ts',
};

/** `from` importing `to`, written as the relative specifier the module would use. */
function specifier(from: string, to: string): string {
  const up = from.split('/').length - 1;
  return `${'../'.repeat(up)}${to.replace(/\.ts$/, '.js')}`;
}

const ruleSlug = (folder: string) => folder.replace('/', '-');

/** Every folder imports one module of the floor just above it: one upward arrow per floor. */
const upward = floors.slice(1).flatMap((floor, i) =>
  floor.map((folder) => {
    const target = representative[floors[i]![0]!]!;
    return { rule: `no-upward-from-${ruleSlug(folder)}`, from: `${folder}/upward.ts`, to: target };
  }),
);

/** Every folder on a shared floor imports its first sibling. */
const sideways = floors
  .filter((floor) => floor.length > 1)
  .flatMap((floor) =>
    floor.map((folder) => {
      const sibling = floor.find((f) => f !== folder)!;
      return { rule: `no-sibling-from-${ruleSlug(folder)}`, from: `${folder}/sideways.ts`, to: representative[sibling]! };
    }),
  );

/** One deliberate violation of every other rule, as `rule: from → to` (what the err reporter prints). */
const others: Array<{ rule: string; from: string; to: string; spec?: string; type?: boolean }> = [
  { rule: 'no-upward-from-util', from: 'util/far-upward.ts', to: 'cli/main.ts' }, // across every floor
  { rule: 'no-sibling-from-critic', from: 'critic/world.ts', to: 'sim/env.ts', type: true }, // a type-only import
  { rule: 'every-module-on-a-floor', from: 'scripts/tool.ts', to: 'fs', spec: 'node:fs' },
  { rule: 'every-import-lands-on-a-floor', from: 'cli/stray.ts', to: 'scripts/tool.ts' },
  { rule: 'world-adapters-do-not-import-each-other', from: 'sim/point-mass/cross.ts', to: 'sim/tabletop/world.ts' },
  { rule: 'policy-adapters-do-not-import-each-other', from: 'zinfra/policy/zmq/cross.ts', to: 'zinfra/policy/onnx/model.ts' },
  { rule: 'world-adapters-reached-from-the-top', from: 'zinfra/runtime/adapter.ts', to: 'sim/tabletop/world.ts' },
  { rule: 'world-adapters-reached-through-the-registry', from: 'sim/port-leak.ts', to: 'sim/point-mass/world.ts' },
  { rule: 'policy-adapters-reached-from-the-top', from: 'zinfra/runtime/adapter.ts', to: 'zinfra/policy/zmq/client.ts' },
  { rule: 'policy-adapters-reached-from-the-top', from: 'zinfra/policy/port-leak.ts', to: 'zinfra/policy/onnx/model.ts' },
  { rule: 'critic-entered-through-its-index', from: 'evolution/bypass.ts', to: 'critic/features.ts' },
  { rule: 'no-unresolvable', from: 'cli/broken.ts', to: './missing.js', spec: './missing.js' },
];
const violations = [...upward, ...sideways, ...others];

function violatingTree(): Tree {
  const imports = new Map<string, string[]>();
  for (const v of [...upward, ...sideways, ...others]) {
    const o = v as { from: string; to: string; spec?: string; type?: boolean };
    const spec = o.spec ?? specifier(o.from, o.to);
    imports.set(o.from, [...(imports.get(o.from) ?? []), o.type ? `type ${spec}` : spec]);
  }
  const tree: Tree = { ...clean };
  for (const [from, specs] of imports) tree[from] = mod(...new Set(specs));
  // A circle inside one folder, half of it type-only.
  tree['critic/rules/a.ts'] = mod('./b.js');
  tree['critic/rules/b.ts'] = mod('type ./a.js');
  return tree;
}

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
    'tests/critic/upward.test.ts': mod('../../sim/tabletop/world.js', '../../cli/main.js', '../../critic/features.js'),
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
    const { code, output } = await depcheck(writeTree(violatingTree()));
    const lines = reported(output);
    expect(code).not.toBe(0);
    // The circle, whichever of its two modules the report starts from.
    expect(output).toMatch(/error no-circular: critic\/rules\/[ab]\.ts →\s*\n\s*critic\/rules\/[ab]\.ts →\s*\n\s*critic\/rules\/[ab]\.ts/);
    const expected = violations.map(({ rule, from, to }) => `${rule}: ${from} → ${to}`);
    expect(lines.filter((l) => !l.startsWith('no-circular:')).sort()).toEqual(expected.sort());
    expect(lines.filter((l) => l.startsWith('no-circular:'))).toHaveLength(1);
    // Every rule in the config bit at least once, and nothing in tests/ was judged.
    expect(new Set(lines.map((l) => l.split(':')[0]))).toEqual(new Set(ruleNames));
    expect(output).not.toMatch(/tests\//);
  });
});
