// What happened in an episode besides its features, as rows the timelines can draw: who drove each
// stretch of steps (policy, recovery, hold), every step the critic proposed something, each
// governor decision other than a plain execute (where it starts), and the step each milestone was
// first reached.
import type { EpisodeStep } from '../../../contract';

export interface Segment {
  readonly source: string;
  /** First step of the stretch and one past its last (so a one-step stretch has width). */
  readonly start: number;
  readonly end: number;
}

export interface ProposalMark {
  readonly t: number;
  readonly text: string;
  readonly safety: boolean;
}

export interface DecisionMark {
  readonly t: number;
  readonly kind: string;
  readonly text: string;
}

export interface MilestoneMark {
  readonly t: number;
  readonly milestone: string;
}

export interface EpisodeMarks {
  readonly segments: readonly Segment[];
  readonly proposals: readonly ProposalMark[];
  readonly decisions: readonly DecisionMark[];
  readonly milestones: readonly MilestoneMark[];
}

export function episodeMarks(steps: readonly EpisodeStep[]): EpisodeMarks {
  const segments: Segment[] = [];
  const proposals: ProposalMark[] = [];
  const decisions: DecisionMark[] = [];
  const milestones: MilestoneMark[] = [];
  const reached = new Set<string>();
  let previous: EpisodeStep['decision'] = null;
  for (const s of steps) {
    const last = segments.at(-1);
    if (last && last.source === s.source && last.end === s.t) segments[segments.length - 1] = { ...last, end: s.t + 1 };
    else segments.push({ source: s.source, start: s.t, end: s.t + 1 });
    if (s.proposals.length > 0) {
      proposals.push({
        t: s.t,
        text: s.proposals.map((p) => `${p.ruleId} → ${p.proposal} (priority ${p.priority}${p.safety ? ', safety' : ''})`).join('\n'),
        safety: s.proposals.some((p) => p.safety),
      });
    }
    // a decision is marked where it starts: a recovery's every step says `recover` again
    const d = s.decision;
    if (d && d.kind !== 'execute' && !(previous && previous.kind === d.kind && previous.recovery === d.recovery)) {
      decisions.push({ t: s.t, kind: d.kind, text: [d.kind, d.recovery, d.reason].filter(Boolean).join(': ') });
    }
    previous = d ?? null;
    for (const m of s.milestones) {
      if (reached.has(m)) continue;
      reached.add(m);
      milestones.push({ t: s.t, milestone: m });
    }
  }
  return { segments, proposals, decisions, milestones };
}

/** Features worth a first look, in this order, when the episode has them. */
const PREFERRED = ['robot.eef_z', 'derived.gripper_width', 'observed.object_eef_dist', 'command.stalled_steps'];

export function defaultFeatures(names: readonly string[]): string[] {
  // each preferred feature by its name, else by its last part (older recordings say eef_z)
  const tail = (n: string) => n.slice(n.lastIndexOf('.') + 1);
  const picked = PREFERRED.map((p) => (names.includes(p) ? p : names.find((n) => tail(n) === tail(p)))).filter(
    (n): n is string => n !== undefined,
  );
  return picked.length > 0 ? picked : names.slice(0, 3);
}

export const SOURCE_COLORS = { domain: ['policy', 'recovery', 'hold'], range: ['#cbd2d9', '#dd6b20', '#805ad5'] };
export const DECISION_COLORS = {
  domain: ['clamp', 'recover', 'hold', 'abort', 'reenter'],
  range: ['#d69e2e', '#dd6b20', '#805ad5', '#c53030', '#2f855a'],
};
