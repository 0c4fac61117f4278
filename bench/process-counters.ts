// The counts that explain a latency: minor page faults and context switches of a process, and the
// bytes V8 allocated in it. In the measuring process itself they come from process.resourceUsage()
// and V8's GC profiler (allocated = heap growth + what each collection freed); of another process
// (a server) from /proc, where the machine has it.
import { readFileSync } from 'node:fs';
import { GCProfiler, getHeapStatistics } from 'node:v8';

export interface Counts {
  readonly minorFaults: number;
  readonly contextSwitches: number;
  /** null where it cannot be known (another process). */
  readonly v8Bytes: number | null;
}

/** Counts of this process from now until stop(). */
export function countSelf(): { stop(): Counts } {
  const usage0 = process.resourceUsage();
  const heap0 = getHeapStatistics().used_heap_size;
  const gc = new GCProfiler();
  gc.start();
  return {
    stop() {
      const freed = (gc.stop()?.statistics ?? []).reduce(
        (sum, s) => sum + Math.max(0, s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize),
        0,
      );
      const usage1 = process.resourceUsage();
      return {
        minorFaults: usage1.minorPageFault - usage0.minorPageFault,
        contextSwitches: switches(usage1) - switches(usage0),
        v8Bytes: getHeapStatistics().used_heap_size - heap0 + freed,
      };
    },
  };
}

const switches = (u: NodeJS.ResourceUsage) => u.voluntaryContextSwitches + u.involuntaryContextSwitches;

/** Counts of another process (by pid) from now until stop(); null where /proc cannot be read. */
export function countProcess(pid: number | undefined): { stop(): Counts | null } {
  const first = pid === undefined ? null : readProc(pid);
  return {
    stop() {
      const last = pid === undefined || !first ? null : readProc(pid);
      if (!first || !last) return null;
      return {
        minorFaults: last.minorFaults - first.minorFaults,
        contextSwitches: last.contextSwitches - first.contextSwitches,
        v8Bytes: null,
      };
    },
  };
}

function readProc(pid: number): { minorFaults: number; contextSwitches: number } | null {
  try {
    // /proc/PID/stat: the command name may hold spaces, so fields are counted after its ')'
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { minorFaults: Number(fields[7]), contextSwitches: field('voluntary_ctxt_switches') + field('nonvoluntary_ctxt_switches') };
  } catch {
    return null;
  }
}

/** Per round trip, rounded for a table. */
export function perRound(c: Counts | null, rounds: number): Counts | null {
  if (!c || rounds <= 0) return null;
  const r = (x: number) => Math.round((x / rounds) * 10) / 10;
  return {
    minorFaults: r(c.minorFaults),
    contextSwitches: r(c.contextSwitches),
    v8Bytes: c.v8Bytes === null ? null : Math.round(c.v8Bytes / rounds),
  };
}
