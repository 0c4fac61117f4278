// `zetta eval --env zmq://…` and `zetta evolve --env …` as a user runs them (bin/zetta.js over the
// built dist/: run `npm run build` first), against the test's own slider server, a critic bundle
// written for it, and a real ONNX policy. The runtime is the one every world uses.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../support/python-shim-harness.js';
import { runZetta } from '../../support/zetta-process.js';
import { EnvServerProcess, HERE, SLIDER_SERVER } from './env-server-process.js';
import { ScriptedServer, SPEC } from './scripted-env-server.js';
import { writeSliderPolicy } from './slider-policy.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-remote-cli-'));
const policy = `onnx:${writeSliderPolicy(join(dir, 'slider.onnx'))}`;
const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, any>;

interface EvalReport {
  tasks: Record<string, { success: number; episodes: number; infra_failures: number }>;
  recoveries: number;
  infra_retries: number;
  critic: string;
  env: {
    server: string;
    world: string;
    protocol: Record<string, unknown>;
    privileged_features: { read_by_critic: boolean; declared: string[] };
  };
}

describe.skipIf(missing !== null)(`zetta eval / evolve --env${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let server: EnvServerProcess;
  beforeAll(async () => {
    server = await EnvServerProcess.start(SLIDER_SERVER, ['--bind', 'tcp://127.0.0.1:*', '--log-steps']);
  });
  afterAll(async () => {
    await server?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  const evalArgs = (bundle: string, out: string) => [
    'eval',
    '--env',
    server.zmq,
    '--tasks',
    'slide/bump',
    '--episodes',
    '3',
    '--execute-steps',
    '2',
    '--policy',
    policy,
    '--critic',
    join(HERE, bundle),
    '--no-record',
    '--out',
    join(dir, out),
    '--json',
  ];

  it('a governed eval gets over the bump; the report names the server, its protocol, and that no privileged feature was read', async () => {
    const r = await runZetta(evalArgs('slider-bundle', 'eval'));
    expect(r.code, r.stderr).toBe(0);
    const report = lastJson(r.stdout) as EvalReport;
    expect(report.tasks['slide/bump']).toMatchObject({ success: 3, episodes: 3, infra_failures: 0 });
    expect(report.recoveries).toBeGreaterThanOrEqual(3);
    expect(report.env).toEqual({
      server: server.endpoint,
      world: 'slider',
      protocol: { trials_per_task: 3, max_steps: { slide: 60 }, control_hz: 20 },
      privileged_features: { read_by_critic: false, declared: ['privileged.blocked', 'privileged.height'] },
    });
    expect(r.stdout).toContain(`env slider at ${server.endpoint}; protocol: trials_per_task 3`);
    // eval.json carries the same, with the episodes.
    expect(JSON.parse(readFileSync(join(dir, 'eval', 'eval.json'), 'utf8')).env.world).toBe('slider');
  });

  it("a bundle that declares privileged features reads the server's privileged ones, and the report says so", async () => {
    const r = await runZetta(evalArgs('slider-privileged-bundle', 'eval-privileged'));
    expect(r.code, r.stderr).toBe(0);
    const report = lastJson(r.stdout) as EvalReport;
    expect(report.tasks['slide/bump']!.success).toBe(3);
    expect(report.env.privileged_features.read_by_critic).toBe(true);
    expect(report.critic).toMatch(/slider-hop-privileged@.*privileged features authorized/);
    expect(r.stdout).toContain('the critic read privileged features (privileged.blocked, privileged.height)');
  });

  it('a bundle that reads a privileged feature without declaring it is refused at load, naming the feature', async () => {
    const undeclared = join(dir, 'undeclared-bundle');
    cpSync(join(HERE, 'slider-privileged-bundle'), undeclared, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(undeclared, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(undeclared, 'manifest.json'), JSON.stringify({ ...manifest, privileged: false, privileged_reason: undefined }));
    const r = await runZetta([
      'eval',
      '--env',
      server.zmq,
      '--tasks',
      'slide/bump',
      '--episodes',
      '1',
      '--policy',
      policy,
      '--critic',
      undeclared,
      '--no-record',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /privileged feature "privileged\.blocked" \(simulator ground truth of "slider"\) needs a bundle that declares "privileged": true/,
    );
  });

  it('zetta evolve --env, from an empty bundle, discovers how to get over the bump with no tabletop code path', async () => {
    const root = join(dir, 'evolve');
    const r = await runZetta(
      [
        'evolve',
        '--env',
        server.zmq,
        '--suite',
        'slide',
        '--task',
        'slide/bump',
        '--root',
        root,
        '--policy',
        policy,
        '--critic',
        'none',
        '--dev-episodes',
        '8',
        '--heldout-seeds',
        '5000-5007',
        '--confirm-seeds',
        '6000-6007',
        '--generations',
        '1',
        '--execute-steps',
        '2',
        '--json',
      ],
      240_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const summary = lastJson(r.stdout) as {
      generations: number;
      report: string;
      promoted: boolean;
      bundle_dir: string;
      heldout: { parent_success: number; candidate_success: number };
      confirmation: { parent_success: number; candidate_success: number; episodes: number };
    };
    expect(summary.generations).toBe(1);
    // the search found a condition over the server's and the critic's features and a library action
    expect(summary.promoted).toBe(true);
    expect(summary.confirmation.parent_success).toBe(0);
    expect(summary.confirmation.candidate_success).toBeGreaterThanOrEqual(summary.confirmation.episodes - 1);
    const evolved =
      readFileSync(join(summary.bundle_dir, 'rules.json'), 'utf8') + readFileSync(join(summary.bundle_dir, 'recoveries.json'), 'utf8');
    expect(evolved).not.toMatch(/observed\.object|privileged\.|milestones/);
    const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as {
      world: string;
      authorized_features: { names: string[] };
    };
    expect(manifest.world).toBe(server.zmq);
    expect(manifest.authorized_features.names).toContain('observed.target_dist');
    expect(readFileSync(summary.report, 'utf8')).toContain('slide/bump');
  }, 240_000);

  it('a server killed mid-episode and restarted: the episode is re-run at its seed, the report counts it as an infra retry', async () => {
    const victim = await EnvServerProcess.start(SLIDER_SERVER, ['--bind', 'tcp://127.0.0.1:*', '--log-steps', '--step-delay-ms', '10']);
    let restarted: EnvServerProcess | undefined;
    const kill = victim
      .until((l) => l === 'step 1001 3')
      .then(async () => {
        await victim.kill('SIGKILL');
        await new Promise((res) => setTimeout(res, 300));
        restarted = await EnvServerProcess.start(SLIDER_SERVER, ['--bind', victim.endpoint]);
      });
    const r = await runZetta([
      'eval',
      '--env',
      victim.zmq,
      '--tasks',
      'slide/open',
      '--episodes',
      '3',
      '--execute-steps',
      '2',
      '--policy',
      policy,
      '--no-record',
      '--out',
      join(dir, 'eval-kill'),
      '--json',
    ]);
    await kill;
    await restarted?.kill('SIGTERM');
    expect(r.code, r.stderr).toBe(0);
    const report = lastJson(r.stdout) as EvalReport;
    expect(report.tasks['slide/open']).toMatchObject({ success: 3, episodes: 3, infra_failures: 0 });
    expect(report.infra_retries).toBe(1);
  });
});

describe('zetta eval --env: what is wrong is said in one line', () => {
  it('a spec that does not validate names the op and the field (exit 2)', async () => {
    const bad = await ScriptedServer.start(() => ({ ok: true, spec: { ...SPEC, max_steps: {} } }));
    try {
      const r = await runZetta(['eval', '--env', bad.spec(), '--suite', 's', '--episodes', '1', '--policy', 'null:open', '--no-record']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^zetta eval: env server's "spec" reply: spec\.max_steps\.s: missing: every suite needs its max steps\n/);
    } finally {
      bad.close();
    }
  });

  it('no server at the address (exit 2)', async () => {
    const r = await runZetta(['eval', '--env', 'zmq://127.0.0.1:9?timeout_ms=300', '--suite', 's', '--policy', 'null:open', '--no-record']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/env server tcp:\/\/127\.0\.0\.1:9 did not answer "spec" within 300 ms/);
  });

  it('one server is one simulator: more workers, and --world with --env, are usage errors', async () => {
    const ok = await ScriptedServer.start((req) => (req.op === 'spec' ? { ok: true, spec: SPEC } : { ok: true }));
    try {
      const more = await runZetta(['eval', '--env', ok.spec(), '--suite', 's', '--workers', '2', '--policy', 'null:open', '--no-record']);
      expect(more.code).toBe(2);
      expect(more.stderr).toMatch(/runs one simulator: use --workers 1 --envs-per-worker 1/);
      const both = await runZetta([
        'eval',
        '--world',
        'point-mass',
        '--env',
        ok.spec(),
        '--suite',
        's',
        '--policy',
        'null:open',
        '--no-record',
      ]);
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/give --world or --env, not both/);
    } finally {
      ok.close();
    }
  });
});
