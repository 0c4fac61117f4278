// The report of `zetta run`: the JSON every stage writes into, and a Markdown rendering for people.
import type { BaselineStageResult } from './baseline-stage.js';
import type { ExpertStageResult } from './expert-stage.js';
import type { WireStageResult } from './wire-stage.js';

export interface RunReport {
  started: string;
  finished?: string;
  out: string;
  stages: { wire?: WireStageResult; expert?: ExpertStageResult; baseline?: BaselineStageResult };
  skipped?: string[];
  ok?: boolean;
}

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '—');

export function renderMarkdown(r: RunReport): string {
  const lines = [`# zetta run`, '', `Started ${r.started}${r.finished ? `, finished ${r.finished}` : ' (running or interrupted)'}.`, ''];
  const { wire, expert, baseline } = r.stages;
  if (wire) {
    const py = 'skipped' in wire.python ? `skipped (${wire.python.skipped})` : `p50 ${wire.python.p50_ms.toFixed(2)} ms, max difference from Node ${wire.python.max_abs_diff_vs_node.toExponential(1)}`;
    lines.push('## Policy wire', '', `- Node ONNX server over ZeroMQ: p50 ${wire.node.p50_ms.toFixed(2)} ms, p99 ${wire.node.p99_ms.toFixed(2)} ms (${wire.node.requests} requests)`, `- Python shim: ${py}`, '');
  }
  if (expert || baseline) lines.push(...successTable(expert, baseline));
  for (const s of r.skipped ?? []) lines.push(`- skipped: ${s}`);
  return `${lines.join('\n')}\n`;
}

function successTable(expert: ExpertStageResult | undefined, baseline: BaselineStageResult | undefined): string[] {
  const conditions = baseline ? Object.keys(baseline.conditions) : [];
  const tasks = Object.keys(expert?.tasks ?? baseline?.conditions[conditions[0]!]?.tasks ?? {});
  const header = ['task', ...(expert ? ['expert'] : []), ...conditions.map((c) => `base policy, ${c}`)];
  const cell = (t: { success: number; episodes: number } | undefined) => (t ? `${t.success}/${t.episodes}` : '—');
  const rows = tasks.map((task) => [task, ...(expert ? [cell(expert.tasks[task])] : []), ...conditions.map((c) => cell(baseline!.conditions[c]!.tasks[task]))]);
  const macro = ['**macro**', ...(expert ? [pct(expert.macro_success)] : []), ...conditions.map((c) => pct(baseline!.conditions[c]!.macro_success))];
  return [
    '## Success per task',
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...[...rows, macro].map((r) => `| ${r.join(' | ')} |`),
    '',
  ];
}
