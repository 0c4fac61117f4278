// Skills as the API contract has them (console/contract): the store's records, audit rows and
// content mapped field by field into the contract's types. The store keeps the evidence it copied
// from a campaign's report.json as it found it (`unknown` in skills/skill.ts); those parts are the
// report's own shapes (skills/from-campaign.ts copies them), and are typed as the report types them.
import type { CampaignReport, CandidateRow } from '../../evolution/report/report.js';
import type { ReachVerdict } from '../../skills/reach.js';
import type { GateDecision, SkillContent, SkillEvidence } from '../../skills/skill.js';
import type { AuditRow, SkillRecord } from '../../skills/store/skill-store.js';
import type {
  AuditRow as AuditView,
  GateDecision as DecisionView,
  ReachRow,
  SkillContent as ContentView,
  SkillEvidence as EvidenceView,
  SkillRecord as RecordView,
  SkillRow,
} from '../contract/index.js';

/** One line of the skill list. */
export function skillRow(s: SkillRecord): SkillRow {
  const c = s.content;
  return {
    id: s.id,
    name: c.name,
    state: s.state,
    world: c.guard.world,
    suite: c.guard.tags.suite,
    source_task: c.guard.tags.source_task,
    campaign_id: c.evidence.campaign_id,
    created_at: s.created_at,
    updated_at: s.updated_at,
    privileged: c.guard.privileged,
  };
}

export function skillRecord(s: SkillRecord): RecordView {
  return {
    id: s.id,
    content_sha256: s.content_sha256,
    state: s.state,
    created_at: s.created_at,
    updated_at: s.updated_at,
    content: contentView(s.content),
  };
}

export function auditRow(a: AuditRow): AuditView {
  return {
    seq: a.seq,
    skill_id: a.skill_id,
    at: a.at,
    actor: a.actor,
    reason: a.reason,
    from_state: a.from_state,
    to_state: a.to_state,
    content_sha256: a.content_sha256,
    bundle_sha256: a.bundle_sha256,
  };
}

export function reachRow(v: ReachVerdict): ReachRow {
  const e = v.evidence;
  return {
    task: v.task,
    loads: v.loads,
    reason: v.reason,
    perturbations: e.perturbations,
    episodes: e.episodes,
    without: e.without,
    with: e.with,
    rescued: e.b,
    broken: e.c,
    critic_alone: e.critic_alone,
    critic_alone_cap: e.critic_alone_cap,
  };
}

function contentView(c: SkillContent): ContentView {
  return {
    version: c.version,
    name: c.name,
    description: c.description,
    guard: c.guard,
    evidence: evidenceView(c.evidence),
    provenance: c.provenance,
    changes: c.changes,
    files: c.files,
  };
}

function evidenceView(e: SkillEvidence): EvidenceView {
  return {
    campaign_id: e.campaign_id,
    promoted_candidate: e.promoted_candidate,
    generation: e.generation,
    mechanism: e.mechanism,
    decisions: e.decisions.map(decisionView),
    heldout: e.heldout as CampaignReport['heldout'],
    confirmation: e.confirmation as CampaignReport['confirmation'],
    shadow: e.shadow,
  };
}

function decisionView(d: GateDecision): DecisionView {
  return {
    generation: d.generation,
    candidate: d.candidate,
    decision: d.decision,
    stage: d.stage,
    reason: d.reason,
    gates: d.gates as CandidateRow['gates'],
    critic_alone: d.critic_alone as CandidateRow['critic_alone'],
    shadow: d.shadow as CandidateRow['shadow'],
  };
}
