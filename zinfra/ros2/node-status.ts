// What the node says about itself: /diagnostics (diagnostic_msgs/DiagnosticArray, 1 Hz on the node
// clock) with one status per concern — the policy link and its latency, the critic and any active
// recovery, the watchdog, the control latch — and ~/events (std_msgs/String, one JSON object per
// control tick: the proposal, the critic's proposals and the governor's decision, what was sent).
import type { PipelineStats } from '../runtime/action-pipeline.js';
import { DIAGNOSTIC_LEVEL, header, stampOf, type DiagnosticArray, type DiagnosticStatus } from './messages.js';

export interface PolicyLink {
  /** The last request's error, cleared by the next success. */
  lastError: string | null;
  /** Round trip of the last answered request (node clock, ms). */
  lastLatencyMs: number;
  /** Requests answered since start. */
  answered: number;
}

export interface StatusInputs {
  readonly nodeName: string;
  readonly policyLabel: string;
  readonly criticLabel: string;
  readonly link: PolicyLink;
  readonly pipeline: PipelineStats;
  readonly recovery: string | null;
  readonly recoveries: number;
  readonly envelopeHits: number;
  readonly lastDecision: string;
  readonly watchdog: string | null;
  readonly watchdogTrips: number;
  readonly stateAgeMs: number;
  readonly latch: string | null;
  readonly step: number;
  readonly controlHz: number;
  /** Per camera key: null while frames arrive as the policy takes them, else why the last one could not be used. */
  readonly cameras: Readonly<Record<string, { readonly received: boolean; readonly error: string | null }>>;
}

const kv = (key: string, value: string | number) => ({ key, value: String(value) });

/** One DiagnosticArray for this moment (allocates: 1 Hz, off the control path). */
export function diagnostics(s: StatusInputs, nowMs: number): DiagnosticArray {
  const name = (what: string) => `${s.nodeName}: ${what}`;
  const linkDown = s.link.lastError !== null;
  const status: DiagnosticStatus[] = [
    {
      level: linkDown ? DIAGNOSTIC_LEVEL.error : DIAGNOSTIC_LEVEL.ok,
      name: name('policy link'),
      message: linkDown ? `policy unreachable, robot held: ${s.link.lastError}` : `connected to ${s.policyLabel}`,
      hardware_id: s.policyLabel,
      values: [
        kv('latency_ms', s.link.lastLatencyMs.toFixed(1)),
        kv('answered', s.link.answered),
        kv('requests', s.pipeline.requests),
        kv('failed_requests', s.pipeline.failedRequests),
        kv('late_chunks', s.pipeline.lateChunks),
        kv('pipeline_holds', s.pipeline.holds),
      ],
    },
    {
      level: s.recovery ? DIAGNOSTIC_LEVEL.warn : DIAGNOSTIC_LEVEL.ok,
      name: name('critic'),
      message: s.recovery ? `recovery ${s.recovery} drives the robot` : `governing (${s.lastDecision})`,
      hardware_id: s.criticLabel,
      values: [
        kv('active_recovery', s.recovery ?? 'none'),
        kv('recoveries', s.recoveries),
        kv('envelope_hits', s.envelopeHits),
        kv('last_decision', s.lastDecision),
      ],
    },
    {
      level: s.watchdog ? DIAGNOSTIC_LEVEL.error : DIAGNOSTIC_LEVEL.ok,
      name: name('watchdog'),
      message: s.watchdog ?? 'inputs and chunks on time',
      hardware_id: '',
      values: [kv('state_age_ms', Number.isFinite(s.stateAgeMs) ? s.stateAgeMs.toFixed(1) : 'none'), kv('trips', s.watchdogTrips)],
    },
    {
      level: s.latch ? DIAGNOSTIC_LEVEL.warn : DIAGNOSTIC_LEVEL.ok,
      name: name('control'),
      message: s.latch ? `holding: ${s.latch}${s.latch === 'paused' ? '' : ' (latched until ~/resume)'}` : 'running',
      hardware_id: '',
      values: [kv('step', s.step), kv('control_hz', s.controlHz)],
    },
    ...Object.entries(s.cameras).map(
      ([key, c]): DiagnosticStatus => ({
        level: c.error ? DIAGNOSTIC_LEVEL.warn : c.received ? DIAGNOSTIC_LEVEL.ok : DIAGNOSTIC_LEVEL.stale,
        name: name(`camera ${key}`),
        message: c.error ? `last frame unusable: ${c.error}` : c.received ? 'frames arriving' : 'no frame yet',
        hardware_id: key,
        values: [],
      }),
    ),
  ];
  const h = header('');
  stampOf(nowMs, h.stamp);
  return { header: h, status };
}

export interface TickEvent {
  readonly t_ms: number;
  readonly step: number;
  /** The policy's a_t, or null (not asked: a recovery drove, or the node held before asking). */
  readonly proposed: number[] | null;
  /** What was published, or null for a hold (zero motion, gripper unchanged). */
  readonly sent: number[] | null;
  readonly source: string;
  readonly proposals?: readonly { ruleId: string; proposal: string }[];
  readonly decision?: { kind: string; recovery?: string; reason?: string };
  /** Why the node held without asking the critic (watchdog, latch, policy link). */
  readonly hold?: string;
  /** The state's age when the command went out (ms, node clock): robot state received → command published. */
  readonly latency_ms?: number;
}
