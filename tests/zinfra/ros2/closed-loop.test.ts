// Acceptance: the embedded tabletop as a simulated robot on the in-memory graph (a test double),
// driven through TwistStamped and gripper commands by the ROS 2 node with the base policy and the
// default critic, succeeds on a perturbed task as often as `zetta eval` does at the same seeds
// (within eval's Wilson 95% interval). Simulated time: deterministic, no wall clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world as tabletop } from '../../../sim/tabletop/tabletop-world.js';
import { openPolicy } from '../../../zinfra/policy/open-policy.js';
import type { Policy } from '../../../zinfra/policy/policy.js';
import { EPISODES, FIRST_SEED, PERTURBATIONS, TASK, evalReference } from './closed-loop-reference.js';
import { nodeOnMemoryGraph, runGraphEpisode } from './node-harness.js';
import type { StringMessage, TwistStamped } from '../../../zinfra/ros2/messages.js';
import { SIM_TOPICS, SimulatedTabletopRobot, simulatedRobotConfig } from './simulated-robot.js';

let policy: Policy;
/** Recovery ticks that reached the command topic, per perturbation. */
const recoveryTicksSeen = new Map<string, number>();
beforeAll(async () => {
  policy = await openPolicy('embedded');
});
afterAll(async () => {
  await policy?.close();
});

describe('closed loop through the in-memory ROS 2 graph (test double)', () => {
  it.each(PERTURBATIONS)(
    `succeeds on ${TASK} under %s within the Wilson interval of eval at the same seeds`,
    async (name) => {
      const perturbation = tabletop.resolvePerturbation(name);
      const evalResult = await evalReference(name, policy);
      const h = nodeOnMemoryGraph(simulatedRobotConfig(TASK), policy, 'lockstep');
      const robot = await SimulatedTabletopRobot.create(h.bus);
      const twists = h.bus.capture<TwistStamped>('geometry_msgs/TwistStamped', SIM_TOPICS.twist);
      const events = h.bus.capture<StringMessage>('std_msgs/String', '/zetta/events');
      const outcomes: boolean[] = [];
      let recoveries = 0;
      try {
        for (let i = 0; i < EPISODES; i++) {
          const e = await runGraphEpisode(h, robot, { task: TASK, seed: FIRST_SEED + i, perturbation });
          expect(e.commands).toBe(e.steps); // lockstep: a command every period
          outcomes.push(e.success);
          recoveries += h.node.options.governance.critic!.recoveriesStarted;
        }
      } finally {
        await robot.close();
      }
      const t = evalResult.tasks[TASK]!;
      const rate = outcomes.filter(Boolean).length / EPISODES;
      const same = outcomes.filter((s, i) => s === evalResult.outcomes[i]!.success).length;
      console.log(
        `${name}: ros2 node ${outcomes.filter(Boolean).length}/${EPISODES} vs eval ${t.successes}/${t.episodes} [${t.low.toFixed(3)}, ${t.high.toFixed(3)}]; same outcome at ${same}/${EPISODES} seeds`,
      );
      expect(rate).toBeGreaterThanOrEqual(t.low);
      expect(rate).toBeLessThanOrEqual(t.high);
      // The critic's recoveries drove the robot through the command topic: each recovery tick's twist is
      // that tick's governed action over the period (one event and one twist per tick).
      expect(events.length).toBe(twists.length);
      // The node's critic started the same recoveries as eval's (a perturbation may need none).
      expect(recoveries).toBe(evalResult.recoveries);
      const recoveryTicks = events
        .map((e, i) => [JSON.parse(e.data) as { source: string; sent: number[] }, twists[i]!] as const)
        .filter(([e]) => e.source === 'recovery');
      recoveryTicksSeen.set(name, recoveryTicks.length);
      for (const [e, twist] of recoveryTicks) {
        expect(twist.twist.linear.x).toBeCloseTo((e.sent[0]! * 0.05) / 0.05, 5);
        expect(twist.twist.linear.z).toBeCloseTo((e.sent[2]! * 0.05) / 0.05, 5);
      }
      if (recoveries > 0)
        expect(recoveryTicks.some(([, tw]) => tw.twist.linear.x !== 0 || tw.twist.linear.y !== 0 || tw.twist.linear.z !== 0)).toBe(true);
      console.log(
        `${name}: ${recoveries} recoveries started (eval: ${evalResult.recoveries}); ${recoveryTicks.length} recovery ticks reached ${SIM_TOPICS.twist}`,
      );
    },
    120_000,
  );

  it('drove the robot with recovery actions through the command topic under at least one perturbation', () => {
    expect(recoveryTicksSeen.size).toBe(PERTURBATIONS.length);
    expect([...recoveryTicksSeen.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
