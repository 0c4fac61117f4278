// The overview page's figures, from files only: every `zetta run` report.json under runs that has
// its governance stage gives, per perturbation, the macro and per-task rates of policy alone,
// critic alone and both with the synergy (experiments/run/governance-stage.ts, and
// measure/governance-arms.ts for perTask and macro); every campaign's report.json gives its
// held-out and confirmation figures, and per generation its dev counts and held-out gates. Run
// reports come through the reader the server was given (run-reports.ts), campaign reports through
// evolution's; both are mapped here into the API contract's overview.
import type { CampaignReport as EvolutionReport } from '../../evolution/report/report.js';
import type {
  ArmFigures,
  CampaignFigures,
  CampaignGenerationFigures,
  ConditionFigures,
  FinalFigures,
  Interval,
  Overview,
  OverviewRun,
} from '../contract/index.js';
import { findCampaignRoots, readCampaign, readCampaignReport } from './campaigns.js';
import {
  findRunReports,
  type ArmsRead,
  type EstimateRead,
  type FinalRead,
  type GovernanceRead,
  type RunReportRead,
  type RunReportReader,
} from './run-reports.js';

export function overview(runs: string, readRunReport: RunReportReader): Overview {
  const campaigns = findCampaignRoots(runs).flatMap((root) => campaignFigures(runs, root));
  const withGovernance = findRunReports(runs, readRunReport).filter(({ report }) => report.stages.governance !== undefined);
  return {
    runs: withGovernance.map(({ dir, report }) => runFigures(dir, report, report.stages.governance!, campaigns)),
    campaigns,
  };
}

function runFigures(dir: string, report: RunReportRead, g: GovernanceRead, campaigns: readonly CampaignFigures[]): OverviewRun {
  const inside = (c: CampaignFigures) => dir === '.' || c.dir.startsWith(`${dir}/`);
  return {
    dir,
    out: dir,
    started: report.started,
    finished: report.finished ?? null,
    ok: report.ok ?? null,
    policy: g.policy,
    critic: g.critic,
    episodes_per_task: g.episodes_per_task,
    mean_synergy: g.mean_synergy,
    conditions: Object.fromEntries(Object.entries(g.conditions).map(([name, arms]) => [name, conditionFigures(arms)])),
    evolution: (report.stages.evolution?.campaigns ?? []).map((c) => ({
      task: c.task,
      perturbation: c.perturbation,
      campaign_id: c.campaign.campaign_id,
    })),
    campaigns: campaigns.filter(inside),
    final: finalFigures(report.stages.final, report.settings?.fromScratch === true),
  };
}

/** The final system beside the default at the final stage's seeds; null when no skill was active. */
function finalFigures(f: FinalRead | undefined, fromScratch: boolean): FinalFigures | null {
  if (!f?.governance) return null;
  const macros = (g: GovernanceRead) =>
    Object.fromEntries(Object.entries(g.conditions).map(([name, arms]) => [name, armFigures(arms.macro)]));
  return {
    first_seed: f.first_seed ?? null,
    episodes_per_task: f.governance.episodes_per_task,
    active_skills: [...f.active_skills],
    from_scratch: fromScratch,
    reference: f.reference ? macros(f.reference) : null,
    reference_mean_synergy: f.reference?.mean_synergy ?? null,
    final: macros(f.governance),
    final_mean_synergy: f.governance.mean_synergy,
  };
}

function conditionFigures(arms: GovernanceRead['conditions'][string]): ConditionFigures {
  const tasks: Record<string, ConditionFigures['tasks'][string]> = {};
  for (const [task, t] of Object.entries(arms.perTask)) tasks[task] = { ...armFigures(t), control: t.critic.control };
  return { macro: armFigures(arms.macro), tasks };
}

const interval = (e: EstimateRead): Interval => ({ value: e.value, low: e.low, high: e.high });

function armFigures(a: ArmsRead): ArmFigures {
  return { policy: interval(a.policy), critic: interval(a.critic), both: interval(a.both), synergy: interval(a.synergy) };
}

function campaignFigures(runs: string, root: string): CampaignFigures[] {
  const listing = readCampaign(runs, root);
  if (!listing) return [];
  let report: EvolutionReport | null;
  try {
    report = readCampaignReport(runs, root);
  } catch {
    return []; // replaced by a report its reader refuses since readCampaign read it: not shown, as there
  }
  return [
    {
      id: listing.id,
      dir: listing.dir,
      task: listing.task,
      perturbation: listing.perturbation,
      promoted: listing.promoted,
      heldout: report?.heldout ?? null,
      confirmation: report?.confirmation ?? null,
      generations: (report?.generations ?? []).map(generationFigures),
    },
  ];
}

function generationFigures(g: EvolutionReport['generations'][number]): CampaignGenerationFigures {
  return {
    generation: g.generation,
    promoted: g.promoted,
    dev: g.dev,
    // each candidate that reached the held-out gate, with its figures
    heldout: g.candidates.flatMap((c) =>
      c.gates.filter((x) => x.gate === 'heldout').map((x) => ({ candidate: c.id, decision: c.decision, ...x })),
    ),
  };
}
