// Acceptance on a real ROS 2 graph: the closed loop as three separate processes over DDS — a policy
// server (`zetta serve-policy`, the embedded ONNX policy), the node (`zetta ros2` with use_sim_time)
// and the simulated robot (`zetta sim-robot`, publishing /clock) — gives in lockstep the same
// outcome as `zetta eval` at every seed, under two perturbations. Then, on the wall clock at 20 Hz
// (`zetta sim-robot --realtime`, the node on real time), the tick period's p99 and the end-to-end
// latency (robot state received → command published) are reported. Skipped, with the reason in
// the name, where ROS 2 or rclnodejs is missing (CI).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPolicy } from '../../../zinfra/policy/open-policy.js';
import type { StringMessage } from '../../../zinfra/ros2/messages.js';
import { RclnodejsGraph } from '../../../zinfra/ros2/rclnodejs-graph.js';
import { EPISODES, FIRST_SEED, PERTURBATIONS, TASK, evalReference } from './closed-loop-reference.js';
import { realGraphMissing, simRobotEpisodes, policyServerForSuite, startZetta, useDomain } from './real-graph-support.js';
import { simulatedRobotConfig } from './simulated-robot.js';

const missing = await realGraphMissing();
useDomain(13);
const TITLE = missing
  ? `the closed loop over DDS: policy server, zetta ros2, zetta sim-robot (skipped: ${missing}; source a ROS 2 installation and install rclnodejs to run it)`
  : `the closed loop over DDS on ROS 2 ${process.env.ROS_DISTRO}: policy server, zetta ros2, zetta sim-robot as separate processes`;

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

function nodeConfig(dir: string, name: string, endpoint: string, useSimTime: boolean): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(simulatedRobotConfig(TASK, { node_name: name, policy: endpoint, use_sim_time: useSimTime })));
  return path;
}

const robotEpisodes = (args: readonly string[]) => simRobotEpisodes(TASK, args);

describe.skipIf(missing !== null)(TITLE, () => {
  const { dir, endpoint } = policyServerForSuite('zetta-ros2-loop-');

  it(`gives in lockstep the same outcome as zetta eval at each of ${EPISODES} seeds under ${PERTURBATIONS.join(' and ')}`, async () => {
    const name = `zetta_lockstep_${process.pid}`;
    const node = startZetta(['ros2', '--config', nodeConfig(dir, name, endpoint, true)]);
    const policy = await openPolicy('embedded');
    try {
      await node.waitFor(new RegExp(`node /${name} running`), 60_000);
      for (const perturbationName of PERTURBATIONS) {
        const evalResult = await evalReference(perturbationName, policy);
        const overDds = await robotEpisodes(['--seed', String(FIRST_SEED), '--episodes', String(EPISODES), '--perturb', perturbationName]);
        const evalOutcomes = evalResult.outcomes.map((o) => ({ seed: o.seed, success: o.success, steps: o.steps }));
        const sameSteps = overDds.filter((e, i) => e.steps === evalOutcomes[i]!.steps).length;
        console.log(
          `${perturbationName}: over DDS ${overDds.filter((e) => e.success).length}/${EPISODES}, eval ${evalOutcomes.filter((e) => e.success).length}/${EPISODES}; ` +
            `same steps at ${sameSteps}/${EPISODES} seeds`,
        );
        expect(overDds.map((e) => [e.seed, e.success])).toEqual(evalOutcomes.map((e) => [e.seed, e.success]));
        expect(sameSteps).toBe(EPISODES);
      }
    } finally {
      await policy.close();
      expect(await node.stop('SIGINT')).toBe(0);
    }
  }, 600_000);

  it('runs on the wall clock at 20 Hz against the robot in real time; reports the tick period p99 and the end-to-end latency', async () => {
    const name = `zetta_realtime_${process.pid}`;
    const node = startZetta(['ros2', '--config', nodeConfig(dir, name, endpoint, false)]);
    const graph = await RclnodejsGraph.open(`zetta_test_listener_${process.pid}`);
    const events: { t_ms: number; source: string; latency_ms?: number }[] = [];
    graph.subscribe<StringMessage>('std_msgs/String', `/${name}/events`, 'reliable', (m) => events.push(JSON.parse(m.data)));
    try {
      await node.waitFor(new RegExp(`node /${name} running`), 60_000);
      const [episode] = await robotEpisodes(['--seed', String(FIRST_SEED), '--realtime']);
      expect(episode!.steps).toBeGreaterThan(0);
      const commands = events.filter((e) => e.source !== 'hold');
      expect(commands.length).toBeGreaterThan(episode!.steps / 2);
      const periods = events.slice(1).map((e, i) => e.t_ms - events[i]!.t_ms);
      const latencies = commands.map((e) => e.latency_ms!).filter(Number.isFinite);
      console.log(
        `real time at 20 Hz: ${events.length} ticks, period median ${quantile(periods, 0.5).toFixed(1)} ms, p99 ${quantile(periods, 0.99).toFixed(1)} ms; ` +
          `state received → command published median ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms; ` +
          `episode ${episode!.success ? 'succeeded' : 'failed'} after ${episode!.steps} steps`,
      );
      expect(quantile(periods, 0.5)).toBeGreaterThan(0);
    } finally {
      await graph.close();
      expect(await node.stop('SIGINT')).toBe(0);
    }
  }, 180_000);
});
