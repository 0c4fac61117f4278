// `zetta bench critic`: per-action latency of the compiled critic against a straightforward
// interpreter of the same rules, in the same run, over the same recorded frames; and an allocation
// check of the whole per-step critic path over many steps.
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { summarize, type Summary } from '../measure/percentiles.js';
import { makeWorkload, BENCH_LAYOUT, BENCH_RECOVERIES, type BenchWorkload } from './critic-workload.js';
import { SafetyEnvelope } from '../critic/index.js';
import { FrameBuilder } from '../critic/index.js';
import { Governor } from '../critic/index.js';
import { NaiveCritic } from './naive-interpreter.js';
import { compileRules } from '../critic/index.js';
import { RULE_FIRED, RULE_UNKNOWN } from '../critic/index.js';
import { TemporalCritic } from '../critic/index.js';

export interface CriticBenchOptions {
  readonly rules?: number;
  readonly frames?: number;
  /** Measured samples per implementation. */
  readonly iterations?: number;
  readonly warmup?: number;
  /** Steps of the allocation check. */
  readonly heapSteps?: number;
  readonly seed?: number;
  /** Evaluations per timed sample; 0 = choose from the timer's resolution. */
  readonly batch?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface CriticBenchResult {
  rules: number;
  frames: number;
  iterations: number;
  batch: number;
  timing: string;
  timer_resolution_ns: number;
  /** Median of an empty timed interval (two back-to-back performance.now() reads), subtracted from
   * every sample of both implementations: it is not part of either's latency. */
  timer_overhead_ns: number;
  p50_us: number;
  p90_us: number;
  p99_us: number;
  baseline_p50_us: number;
  baseline_p90_us: number;
  baseline_p99_us: number;
  ratio_p50: number;
  ratio_p99: number;
  /** The two implementations fired (and reported NaN for) the same rules on every frame. */
  agree: boolean;
  disagreements: number;
  fired_per_step: number;
  heap_steps: number;
  heap_check: string;
  heap_growth_bytes: number;
  heap_gc: 'forced' | 'none';
  gc_events_during_check: number;
  targets: { ratio_p50_ge_10: boolean; p99_us_le_50: boolean; no_heap_growth: boolean };
}

/** The smallest positive difference between two performance.now() readings, in ns. */
function timerResolutionNs(): number {
  let min = Infinity;
  for (let i = 0; i < 20_000; i++) {
    const a = performance.now();
    const d = performance.now() - a;
    if (d > 0 && d < min) min = d;
  }
  return min * 1e6;
}

/**
 * What a timed sample measures when nothing runs between its two reads: the cost of a
 * performance.now() call, in ms (the median of many). Every sample includes it once, whichever
 * implementation it times, so it adds the same absolute time to both and inflates the faster one's
 * latency by a larger fraction (about 3% of a 1.7 µs evaluation here, 0.3% of a 17 µs one).
 */
function timerOverheadMs(): number {
  const d: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const t0 = performance.now();
    d.push(performance.now() - t0);
  }
  d.sort((a, b) => a - b);
  return d[d.length >> 1]!;
}

/** Fired and unknown rules must match between the two implementations on every frame. */
function agreement(w: BenchWorkload): { disagreements: number; firedPerStep: number } {
  const compiled = new TemporalCritic(compileRules(w.rules, { layout: BENCH_LAYOUT, privileged: true, knownRecoveries: BENCH_RECOVERIES }));
  const naive = new NaiveCritic(w.rules);
  let disagreements = 0;
  let fired = 0;
  w.frames.forEach((frame, i) => {
    const r = compiled.evaluate(frame);
    const n = naive.evaluate(w.records[i]!);
    const ids = (status: number) =>
      w.rules.rules
        .filter((_, k) => r.status[k] === status)
        .map((x) => x.id)
        .join();
    if (ids(RULE_FIRED) !== n.fired.join() || ids(RULE_UNKNOWN) !== n.unknown.join()) disagreements++;
    fired += r.count;
  });
  return { disagreements, firedPerStep: fired / w.frames.length };
}

export async function benchCritic(options: CriticBenchOptions = {}): Promise<CriticBenchResult> {
  const nRules = options.rules ?? 64;
  const w = makeWorkload(options.seed ?? 1, nRules, options.frames ?? 4096);
  const { disagreements, firedPerStep } = agreement(w);
  const resolution = timerResolutionNs();
  const iterations = options.iterations ?? 20_000;
  const timed = timeBoth(w, iterations, options.warmup ?? 5_000, options.batch ?? 0, resolution, options.onProgress);
  const heap = await heapCheck(w, options.heapSteps ?? 1_000_000);
  const c = timed.compiled;
  const b = timed.baseline;
  return {
    rules: nRules,
    frames: w.frames.length,
    iterations,
    batch: timed.batch,
    timing:
      (timed.batch === 1
        ? 'each evaluation timed on its own (performance.now)'
        : `timed in batches of ${timed.batch} consecutive evaluations (one is near the timer's resolution); per-action = batch time / ${timed.batch}`) +
      `, minus the timer's own overhead (${round(timed.overheadMs * 1e6, 1)} ns per sample, both implementations)`,
    timer_resolution_ns: Number(resolution.toFixed(1)),
    timer_overhead_ns: round(timed.overheadMs * 1e6, 1),
    p50_us: round(c.p50),
    p90_us: round(c.p90),
    p99_us: round(c.p99),
    baseline_p50_us: round(b.p50),
    baseline_p90_us: round(b.p90),
    baseline_p99_us: round(b.p99),
    ratio_p50: round(b.p50 / c.p50, 2),
    ratio_p99: round(b.p99 / c.p99, 2),
    agree: disagreements === 0,
    disagreements,
    fired_per_step: round(firedPerStep, 2),
    ...heap,
    targets: { ratio_p50_ge_10: b.p50 / c.p50 >= 10, p99_us_le_50: c.p99 <= 50, no_heap_growth: heap.heap_growth_bytes <= 0 },
  };
}

function round(x: number, digits = 3): number {
  return Number(x.toFixed(digits));
}

/** Samples per block: the two implementations alternate in blocks of this many samples. */
const BLOCK = 256;

/**
 * The two implementations alternate in blocks of BLOCK samples over the same frames, so machine
 * noise falls on both alike, while neither runs with the other's garbage and cache misses mixed
 * into every single sample. Each keeps its own temporal state and sees the frames in order.
 */
function timeBoth(
  w: BenchWorkload,
  iterations: number,
  warmup: number,
  batchOpt: number,
  resolutionNs: number,
  onProgress?: (d: number, t: number) => void,
) {
  const compiled = new TemporalCritic(compileRules(w.rules, { layout: BENCH_LAYOUT, privileged: true, knownRecoveries: BENCH_RECOVERIES }));
  const naive = new NaiveCritic(w.rules);
  const n = w.frames.length;
  let ca = 0,
    na = 0; // next frame of each
  for (let i = 0; i < warmup; i++) {
    compiled.evaluate(w.frames[ca++ % n]!);
    naive.evaluate(w.records[na++ % n]!);
  }
  // Batch only if one compiled evaluation is under 50 timer ticks.
  const probe = performance.now();
  for (let i = 0; i < 1000; i++) compiled.evaluate(w.frames[ca++ % n]!);
  const singleNs = ((performance.now() - probe) * 1e6) / 1000;
  const batch = batchOpt > 0 ? batchOpt : singleNs >= 50 * resolutionNs ? 1 : Math.ceil((50 * resolutionNs) / singleNs);
  const overheadMs = timerOverheadMs();
  const cs: number[] = [];
  const bs: number[] = [];
  while (cs.length < iterations) {
    const block = Math.min(BLOCK, iterations - cs.length);
    for (let i = 0; i < block; i++) {
      const t0 = performance.now();
      for (let k = 0; k < batch; k++) compiled.evaluate(w.frames[ca++ % n]!);
      cs.push(((performance.now() - t0 - overheadMs) * 1000) / batch);
    }
    for (let i = 0; i < block; i++) {
      const t0 = performance.now();
      for (let k = 0; k < batch; k++) naive.evaluate(w.records[na++ % n]!);
      bs.push(((performance.now() - t0 - overheadMs) * 1000) / batch);
    }
    onProgress?.(cs.length, iterations);
  }
  return { compiled: summarize(cs) as Summary, baseline: summarize(bs) as Summary, batch, overheadMs };
}

/** A gc function: the global one under --expose-gc, else enabled at run time, else null. */
function findGc(): (() => void) | null {
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === 'function') return g;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
}

/**
 * The whole per-step critic path — fill → evaluate → decide → enforce → commit — for `steps` steps
 * from recorded inputs. Reports heap growth across the loop (after a forced gc when possible) and
 * how many garbage collections ran during it (zero means nothing was allocated worth collecting).
 */
async function heapCheck(w: BenchWorkload, steps: number) {
  const builder = new FrameBuilder({ layout: BENCH_LAYOUT, privileged: true });
  const critic = new TemporalCritic(compileRules(w.rules, { layout: BENCH_LAYOUT, privileged: true, knownRecoveries: BENCH_RECOVERIES }));
  const governor = new Governor();
  const envelope = new SafetyEnvelope({ workspaceMin: [-0.5, -0.5, 0], workspaceMax: [0.7, 0.5, 0.8] });
  const out = new Float32Array(7);
  const n = w.inputs.length;
  const step = (i: number): void => {
    const s = w.inputs[i % n]!;
    const frame = builder.fill(s.state, s.action, s.env, s.inRecovery);
    const d = governor.decide(critic.evaluate(frame), null);
    envelope.enforce(d.kind === 'hold' ? HOLD : s.action, s.state, out);
    builder.commit(out);
  };
  for (let i = 0; i < 50_000; i++) step(i); // warm up and optimize before measuring
  const gc = findGc();
  gc?.();
  let gcEvents = 0;
  const obs = new PerformanceObserver((list) => void (gcEvents += list.getEntries().length));
  obs.observe({ entryTypes: ['gc'] });
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < steps; i++) step(i);
  const grown = process.memoryUsage().heapUsed;
  await new Promise((r) => setImmediate(r));
  obs.disconnect();
  gc?.();
  const after = gc ? process.memoryUsage().heapUsed : grown;
  return {
    heap_steps: steps,
    heap_check: `${steps} steps of FrameBuilder.fill → TemporalCritic.evaluate → Governor.decide → SafetyEnvelope.enforce → commit`,
    heap_growth_bytes: after - before,
    heap_gc: gc ? ('forced' as const) : ('none' as const),
    gc_events_during_check: gcEvents,
  };
}

const HOLD = Float64Array.of(0, 0, 0, 0, 0, 0, -1);
