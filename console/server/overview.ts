// The overview page's figures, from files only: every `zetta run` report.json under runs (the ones
// with stages.governance) gives, per perturbation, the macro and per-task rates of policy alone,
// critic alone and both with the synergy (experiments/run/governance-stage.ts, and
// measure/governance-arms.ts for perTask and macro); every campaign's report.json gives its
// held-out and confirmation figures, and per generation its dev counts and held-out gates.
// The reports are read as plain JSON (the console may not import experiments/), defensively.
import { join } from 'node:path';
import { CAMPAIGN_SEARCH_DEPTH, findCampaignRoots, readCampaign } from './campaigns.js';
import { isRecord, readJsonOrNull, relativeToRuns, walkFolders } from './run-files.js';

type Json = Record<string, unknown>;

export interface ConditionFigures {
  readonly macro: { policy: unknown; critic: unknown; both: unknown; synergy: unknown } | null;
  /** Task → its estimates ({ value, low, high }) and the control that made the critic-alone rate. */
  readonly tasks: Record<string, { policy: unknown; critic: unknown; both: unknown; synergy: unknown; control: string | null }>;
}

export interface CampaignFigures {
  readonly id: string;
  readonly dir: string;
  readonly task: string;
  readonly perturbation: string;
  readonly promoted: boolean | null;
  readonly heldout: unknown;
  readonly confirmation: unknown;
  readonly generations: ReadonlyArray<{ generation: number; promoted: unknown; dev: unknown; heldout: unknown[] }>;
}

export interface RunFigures {
  /** The run's folder relative to runs; `out` is the same (the report's own `out` is an absolute path). */
  readonly dir: string;
  readonly out: string;
  readonly started: unknown;
  readonly finished: unknown;
  readonly ok: unknown;
  readonly policy: unknown;
  readonly critic: unknown;
  readonly episodes_per_task: unknown;
  readonly mean_synergy: unknown;
  readonly conditions: Record<string, ConditionFigures>;
  /** The campaigns the run's evolution stage ran (task, perturbation and id); empty before it ends. */
  readonly evolution: readonly { task: unknown; perturbation: unknown; campaign_id: unknown }[];
  /** Campaign roots inside the run's folder. */
  readonly campaigns: readonly CampaignFigures[];
}

export interface Overview {
  readonly runs: readonly RunFigures[];
  /** Every campaign under runs, in or outside a run. */
  readonly campaigns: readonly CampaignFigures[];
}

export function overview(runs: string): Overview {
  const campaigns = findCampaignRoots(runs).flatMap((root) => campaignFigures(runs, root));
  const reports: { dir: string; report: Json }[] = [];
  walkFolders(runs, CAMPAIGN_SEARCH_DEPTH, (dir, entries) => {
    const names = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    if (names.has('manifest.json') && names.has('state.json')) return false; // a campaign root
    if (names.has('report.json')) {
      const report = safeJson(join(dir, 'report.json'));
      if (isRecord(report) && isRecord(report.stages) && isRecord(report.stages.governance)) reports.push({ dir, report });
    }
    return true;
  });
  return {
    runs: reports.map(({ dir, report }) => runFigures(relativeToRuns(runs, dir), report, campaigns)),
    campaigns,
  };
}

function runFigures(dir: string, report: Json, campaigns: readonly CampaignFigures[]): RunFigures {
  const stages = report.stages as Json;
  const g = stages.governance as Json;
  const conditions: Record<string, ConditionFigures> = {};
  for (const [name, arms] of Object.entries(isRecord(g.conditions) ? g.conditions : {})) if (isRecord(arms)) conditions[name] = conditionFigures(arms);
  const evo = isRecord(stages.evolution) ? stages.evolution : null;
  // a report from before several campaigns per run holds its one campaign's fields at the top
  const runs = evo ? (Array.isArray(evo.campaigns) ? evo.campaigns.filter(isRecord) : [evo]) : [];
  const inside = (c: CampaignFigures) => dir === '.' || c.dir.startsWith(`${dir}/`);
  return {
    dir,
    out: dir,
    started: report.started ?? null,
    finished: report.finished ?? null,
    ok: report.ok ?? null,
    policy: g.policy ?? null,
    critic: g.critic ?? null,
    episodes_per_task: g.episodes_per_task ?? null,
    mean_synergy: g.mean_synergy ?? null,
    conditions,
    evolution: runs.map((c) => ({ task: c.task ?? null, perturbation: c.perturbation ?? null, campaign_id: isRecord(c.campaign) ? (c.campaign.campaign_id ?? null) : null })),
    campaigns: campaigns.filter(inside),
  };
}

function conditionFigures(arms: Json): ConditionFigures {
  const m = isRecord(arms.macro) ? arms.macro : null;
  const tasks: ConditionFigures['tasks'] = {};
  for (const [task, t] of Object.entries(isRecord(arms.perTask) ? arms.perTask : {})) {
    if (!isRecord(t)) continue;
    const control = isRecord(t.critic) && typeof t.critic.control === 'string' ? t.critic.control : null;
    tasks[task] = { policy: t.policy ?? null, critic: t.critic ?? null, both: t.both ?? null, synergy: t.synergy ?? null, control };
  }
  return { macro: m ? { policy: m.policy ?? null, critic: m.critic ?? null, both: m.both ?? null, synergy: m.synergy ?? null } : null, tasks };
}

function campaignFigures(runs: string, root: string): CampaignFigures[] {
  const listing = readCampaign(runs, root);
  if (!listing) return [];
  const report = safeJson(join(root, 'report.json'));
  const r = isRecord(report) ? report : {};
  const generations = Array.isArray(r.generations) ? r.generations.filter(isRecord) : [];
  return [{
    id: listing.id,
    dir: listing.dir,
    task: listing.task,
    perturbation: listing.perturbation,
    promoted: listing.promoted,
    heldout: r.heldout ?? null,
    confirmation: r.confirmation ?? null,
    generations: generations.map((gen) => ({
      generation: typeof gen.generation === 'number' ? gen.generation : 0,
      promoted: gen.promoted ?? null,
      dev: gen.dev ?? null,
      // each candidate that reached the held-out gate, with its figures
      heldout: (Array.isArray(gen.candidates) ? gen.candidates.filter(isRecord) : []).flatMap((c) =>
        (Array.isArray(c.gates) ? c.gates.filter(isRecord) : []).filter((x) => x.gate === 'heldout').map((x) => ({ candidate: c.id ?? null, decision: c.decision ?? null, ...x })),
      ),
    })),
  }];
}

function safeJson(path: string): unknown {
  try {
    return readJsonOrNull(path);
  } catch {
    return null;
  }
}
