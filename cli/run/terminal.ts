// How `zetta run` shows a run on stderr: a progress bar while a stage runs, then the stage's line
// with its headline figures; at the end, what went wrong and where the report is.
import { armsLine, signedPoints, type RunObserver, type RunReport, type StageName } from '../../experiments/run/index.js';
import { progress, type Progress } from '../progress.js';

export function terminalObserver(say: (line: string) => void): RunObserver {
  let bar: Progress | undefined;
  return {
    runStarted: (out) => say(`zetta run → ${out}`),
    stageStarted(stage) {
      // The campaign logs its own lines as it goes; a bar would fight with them.
      if (stage === 'evolution') say('  evolution (one campaign on the weakest task and perturbation under the critic)');
      else bar = progress(`  ${stage}`);
    },
    progress: (_stage, done, total, note) => bar?.update(done, total, note),
    stageFinished(stage, report) {
      bar?.done();
      bar = undefined;
      for (const line of stageLines(stage, report)) say(line);
    },
    stageSkipped: (stage, reason) => say(`  ${stage.padEnd(9)} skipped (${reason})`),
    log: (_stage, line) => say(`    ${line}`),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function stageLines(stage: StageName, report: RunReport): string[] {
  const { wire, expert, baseline, governance, evolution: evo } = report.stages;
  switch (stage) {
    case 'wire':
      return [`  wire      ${wire!.ok ? 'ok' : 'FAILED'}`];
    case 'expert':
      return [`  expert    macro success ${pct(expert!.macro_success)}`];
    case 'baseline':
      return [`  baseline  nominal         macro success ${pct(baseline!.conditions.nominal!.macro_success)}`];
    case 'governance':
      return [
        ...Object.entries(governance!.conditions).map(([name, a]) => `  governance ${armsLine(name, a)}`),
        `  governance mean synergy ${signedPoints(governance!.mean_synergy)} points`,
      ];
    case 'evolution': {
      if (!evo) return [];
      const { heldout: h, confirmation: c } = evo.campaign;
      const confirmed = c ? `; confirmation ${c.parent_success} → ${c.candidate_success} of ${c.episodes} (p = ${c.p_value.toPrecision(3)})` : '';
      const verdict = evo.campaign.promoted ? `promoted, held-out ${h.parent_success} → ${h.candidate_success} of ${h.episodes}${confirmed}` : 'nothing promoted';
      return [`  evolution ${evo.task} / ${evo.perturbation}: ${verdict}`];
    }
  }
}

/** The last stderr lines of a run: each problem, then the verdict and the report's path. */
export function closingLines(report: RunReport, markdownPath: string): string[] {
  const problems = [...(report.stages.baseline?.problems ?? []), ...(report.stages.governance?.problems ?? [])];
  return [...problems.map((p) => `  problem: ${p}`), `${report.ok ? 'ok' : 'FAILED'}: ${markdownPath}`];
}
