// report.html: one self-contained page (inline CSS and SVG, no scripts) drawn from report.json:
// success per generation, cluster sizes, shadow-replay triggers vs false alarms, and the gate table
// with p-values.
import type { CampaignReport, GenerationRow } from './report.js';
import { barChart, escapeXml as esc } from './svg.js';

const pct = (v: number) => `${Math.round(v * 100)}%`;
const rate = (k: number, n: number) => (n ? k / n : 0);

export function renderReportHtml(r: CampaignReport): string {
  const h = r.heldout;
  const c = r.confirmation;
  const confirmed = c
    ? `; on fresh confirmation seeds ${c.parent_successes}/${c.episodes} → ${c.candidate_successes}/${c.episodes}, McNemar one-sided p = ${c.p_value.toPrecision(3)}`
    : '; no confirmation seeds were set';
  const verdict = r.promoted
    ? `promoted bundle <code>${esc(r.final_bundle.sha256.slice(0, 12))}</code>: held-out ${h.parent_successes}/${h.episodes} → ${h.candidate_successes}/${h.episodes} (the seeds that chose it; a generation's first held-out test at α = ${r.heldout_alpha.toPrecision(3)}, each later one at half the one before: weighted Bonferroni over every held-out test the campaign may spend)${confirmed}`
    : `nothing promoted; base held-out success ${h.parent_successes}/${h.episodes}`;
  return [
    '<!doctype html><html><head><meta charset="utf-8">',
    `<title>zetta evolve ${esc(r.campaign_id)}</title>`,
    '<style>body{font:14px system-ui,sans-serif;margin:24px;max-width:1100px}table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 7px;font-size:12px;text-align:left}th{background:#f3f3f3}.pass{color:#1a7f37}.fail{color:#c0392b}code{font-size:12px}section{margin:18px 0}</style>',
    '</head><body>',
    `<h1>Campaign ${esc(r.campaign_id)}</h1>`,
    `<p>${esc(r.task)} (${esc(r.suite)}), perturbation <b>${esc(r.perturbation)}</b>, policy <code>${esc(r.policy)}</code>, diagnoser ${esc(r.diagnoser)}, `,
    `gates α = ${r.gates.alpha}, min gain ${r.gates.min_gain}; manifest <code>${esc(r.manifest_sha256.slice(0, 16))}</code></p>`,
    `<p><b>${verdict}</b></p>`,
    `<section>${successChart(r)}</section>`,
    `<section>${heldoutChart(r)}</section>`,
    `<section>${clusterChart(r.generations)}</section>`,
    `<section>${shadowChart(r.generations)}</section>`,
    `<section><h2>Gates</h2>${gateTable(r.generations)}</section>`,
    `<section><h2>Diagnoses</h2>${diagnosisTable(r.generations)}</section>`,
    '</body></html>',
  ].join('\n');
}

function successChart(r: CampaignReport): string {
  const groups = r.generations.map((g) => {
    const tested = g.candidates.map((c) => c.gates.find((x) => x.gate === 'paired')).filter((x) => x !== undefined);
    const best = tested.length ? Math.max(...tested.map((x) => rate(x.candidate_successes, x.episodes))) : null;
    return {
      label: `gen ${g.generation} (dev)`,
      bars: [{ value: rate(g.dev.successes, g.dev.episodes), series: 0 }, ...(best === null ? [] : [{ value: best, series: 1 }])],
    };
  });
  return barChart({
    title: 'Development success per generation: parent and best candidate',
    groups,
    series: ['parent', 'best candidate'],
    yMax: 1,
    yLabel: 'success rate',
    format: pct,
  });
}

/**
 * Every held-out test as the gate table shows it (parent vs that candidate), then the base against
 * the final bundle on the held-out seeds and, for a promotion, on the confirmation seeds.
 */
function heldoutChart(r: CampaignReport): string {
  const groups = r.generations.flatMap((g) =>
    g.candidates.flatMap((c) =>
      c.gates
        .filter((x) => x.gate === 'heldout')
        .map((x) => ({
          label: `gen ${g.generation} ${c.id}`,
          bars: [
            { value: rate(x.parent_successes, x.episodes), series: 0 },
            { value: rate(x.candidate_successes, x.episodes), series: 1 },
          ],
        })),
    ),
  );
  const h = r.heldout;
  groups.push({
    label: 'base vs final',
    bars: [
      { value: rate(h.parent_successes, h.episodes), series: 0 },
      { value: rate(h.candidate_successes, h.episodes), series: 1 },
    ],
  });
  const c = r.confirmation;
  if (c)
    groups.push({
      label: 'confirmation',
      bars: [
        { value: rate(c.parent_successes, c.episodes), series: 0 },
        { value: rate(c.candidate_successes, c.episodes), series: 1 },
      ],
    });
  return barChart({
    title: 'Held-out tests (parent vs candidate) and the final comparison',
    groups,
    series: ['parent / base', 'candidate / final'],
    yMax: 1,
    yLabel: 'success rate',
    format: pct,
  });
}

function clusterChart(gens: readonly GenerationRow[]): string {
  const groups = gens.map((g) => ({ label: `gen ${g.generation}`, bars: g.clusters.map((c, i) => ({ value: c.size, series: i })) }));
  const yMax = Math.max(1, ...gens.flatMap((g) => g.clusters.map((c) => c.size)));
  const names = Array.from({ length: Math.max(0, ...gens.map((g) => g.clusters.length)) }, (_, i) => `cluster ${i + 1}`).slice(0, 5);
  return barChart({ title: 'Failure cluster sizes', groups, series: names, yMax, yLabel: 'failed episodes', format: (v) => String(v) });
}

function shadowChart(gens: readonly GenerationRow[]): string {
  const rows = gens.flatMap((g) => g.candidates.filter((c) => c.shadow !== null));
  const groups = rows.map((c) => ({
    label: c.id,
    bars: [
      { value: rate(c.shadow!.triggers, c.shadow!.targeted), series: 0 },
      { value: rate(c.shadow!.false_alarms, c.shadow!.successes), series: 1 },
    ],
  }));
  return barChart({
    title: "Shadow replay: in-time triggers on the cluster's failures vs false alarms on successes",
    groups,
    series: ['triggers', 'false alarms'],
    yMax: 1,
    yLabel: 'share of episodes',
    format: pct,
  });
}

function gateTable(gens: readonly GenerationRow[]): string {
  const head =
    '<tr><th>gen</th><th>candidate</th><th>hypothesis</th><th>fit</th><th>gate</th><th>parent</th><th>candidate</th><th>b</th><th>c</th><th>p</th><th>result</th><th>decision</th></tr>';
  const rows = gens.flatMap((g) =>
    g.candidates.flatMap((c) => {
      const fit = c.fit
        ? `θ=${c.fit.theta}, dwell ${c.fit.dwell}`
        : c.tolerances
          ? `xy_tol ${Object.entries(c.tolerances)
              .map(([p, v]) => `${p} ${v}`)
              .join(', ')}`
          : '';
      const lead = `<td>${g.generation}</td><td>${esc(c.id)}</td><td>${esc(c.hypothesis)} (${esc(c.layer)})</td><td>${esc(fit)}</td>`;
      if (c.gates.length === 0)
        return [`<tr>${lead}<td colspan="7">${esc(c.stage)}: ${esc(c.reason)}</td><td class="fail">${esc(c.decision)}</td></tr>`];
      const alone = c.critic_alone
        ? [
            `<tr>${lead}<td>critic alone</td><td colspan="5">${esc(c.critic_alone.reason)}</td><td class="${c.critic_alone.pass ? 'pass' : 'fail'}">${c.critic_alone.pass ? 'pass' : 'fail'}</td><td>${esc(c.decision)}</td></tr>`,
          ]
        : [];
      return c.gates.map(
        (x) =>
          `<tr>${lead}<td>${x.gate}</td><td>${x.parent_successes}/${x.episodes}</td><td>${x.candidate_successes}/${x.episodes}</td><td>${x.b}</td><td>${x.c}</td>` +
          `<td>${x.p_value === null ? '' : x.p_value.toPrecision(3)}</td><td class="${x.pass ? 'pass' : 'fail'}">${x.pass ? 'pass' : 'fail'}</td><td>${esc(c.decision)}</td></tr>` +
          (x.gate === 'regression' ? alone.join('') : ''), // the critic-alone gate runs after regression
      );
    }),
  );
  return `<table>${head}${rows.join('')}</table>`;
}

function diagnosisTable(gens: readonly GenerationRow[]): string {
  const head =
    '<tr><th>gen</th><th>cluster</th><th>size</th><th>first missing</th><th>layer</th><th>mechanism</th><th>competing</th><th>falsifier</th></tr>';
  const rows = gens.flatMap((g) =>
    g.diagnoses.map((d) => {
      const c = g.clusters.find((x) => x.id === d.cluster);
      return `<tr><td>${g.generation}</td><td>${esc(d.cluster)}</td><td>${c?.size ?? ''}</td><td>${esc(c?.first_missing ?? 'none')}</td><td>${esc(d.layer)}</td><td>${esc(d.mechanism)}</td><td>${esc(d.hypotheses.slice(1).join(', '))}</td><td>${esc(d.falsifier)}</td></tr>`;
    }),
  );
  return `<table>${head}${rows.join('')}</table>`;
}
