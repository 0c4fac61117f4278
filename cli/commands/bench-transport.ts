// `zetta bench transport`: see bench/transport.ts.
import { benchTransport, type TransportBenchResult } from '../../bench/transport.js';
import { printJsonLine, type Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { iterations, json, noPython, warmup } from '../flags/table.js';
import { progress } from '../progress.js';

const FLAGS = {
  iterations: iterations.with({ help: 'measured round trips per transport' }).default(500),
  warmup: warmup.with({ help: 'unmeasured round trips first' }).default(50),
  noPython,
  json: json.with({
    help: 'last line: {"payload_bytes", "zmq_p50_us", "zmq_p99_us", "python_p50_us",\n"ws_p50_us", "ws_p99_us", "ratio_p50", "zmq_raw_p50_us", "zetta_over_floor_p50",\n"zetta_over_floor_p99", "zetta_over_floor_with_model_p50", "counts_per_round", ...} with\nratio_p50 = ws_p50 / zmq_p50, zetta_over_floor = zmq / zmq_raw and\nzetta_over_floor_with_model = zmq / zmq_raw_model',
  }),
};

const HELP = `usage: zetta bench transport [--iterations N] [--warmup N] [--no-python] [--json]

Sends a LIBERO-sized observation (two 224×224×3 uint8 images, an 8-float state, a prompt) and
receives a (10, 7) action chunk, many times, through:
  zmq       Zetta over ZeroMQ, Node ↔ Node, TCP loopback
  zmq_ipc   the same over ipc://
  python    Node ↔ the Python policy server shim (Debian's /usr/bin/python3, or $ZETTA_PYTHON), ipc://
  ws        an openpi-style WebSocket + msgpack transport, Node ↔ Node, TCP loopback (the baseline)
  zmq_raw   a bare ZeroMQ echo of the same request bytes, no Zetta code: the floor of this machine
  zmq_raw_model  the same echo running the same model once per request: the floor plus the
            policy's own cost, so zmq over this row is Zetta's code alone
Rounds are interleaved so machine noise falls on all transports alike.

${flagHelp(FLAGS)}`;

export const benchTransportCommand: Command = {
  name: 'bench transport',
  summary: 'policy round trip over each transport',
  help: HELP,
  async run(argv) {
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    const bar = progress('bench transport');
    const result = await benchTransport({
      iterations: f.iterations,
      warmup: f.warmup,
      python: !f.noPython,
      onProgress: (done, total) => bar.update(done, total),
    });
    bar.done();
    process.stdout.write(`${formatTable(result)}\n`);
    if (f.json) printJsonLine(withoutSummaries(result));
    return 0;
  },
};

function formatTable(r: TransportBenchResult): string {
  const n = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : x.toFixed(digits)).padStart(7);
  const rows = Object.entries(r.summaries_us).map(([name, s]) => {
    const c = r.counts_per_round[name];
    const v8 = c?.client?.v8Bytes;
    return `  ${name.padEnd(13)} ${s.p50.toFixed(0).padStart(8)} ${s.p90.toFixed(0).padStart(8)} ${s.p99.toFixed(0).padStart(8)}  ${(s.p50 / r.zmq_p50_us).toFixed(2).padStart(5)}× ${n(c?.client?.minorFaults)} ${n(c?.server?.minorFaults)} ${n(c?.client?.contextSwitches)} ${n(c?.server?.contextSwitches)} ${n(v8 === null || v8 === undefined ? null : v8 / 1024)}`;
  });
  return [
    `payload ${r.payload_bytes} bytes out, (10, 7) float32 back; ${r.iterations} round trips each; counts per round trip`,
    `  ${'transport'.padEnd(13)} ${'p50 µs'.padStart(8)} ${'p90 µs'.padStart(8)} ${'p99 µs'.padStart(8)}  vs zmq ${'flt cli'.padStart(7)} ${'flt srv'.padStart(7)} ${'cs cli'.padStart(7)} ${'cs srv'.padStart(7)} ${'V8 KB'.padStart(7)}`,
    ...rows,
    `zetta over the floor (zmq / zmq_raw): p50 ${r.zetta_over_floor_p50.toFixed(2)}×, p99 ${r.zetta_over_floor_p99.toFixed(2)}×`,
    `zetta over the floor with the model in it (zmq / zmq_raw_model): p50 ${r.zetta_over_floor_with_model_p50.toFixed(2)}×`,
    `ws / zmq at p50: ${r.ratio_p50.toFixed(2)}×${r.python_skipped ? `   (python skipped: ${r.python_skipped})` : ''}`,
    '(flt: minor page faults, cs: context switches, of the client and the server process; V8 KB: bytes the client allocated)',
  ].join('\n');
}

function withoutSummaries(r: TransportBenchResult): Omit<TransportBenchResult, 'summaries_us'> & { summaries_us?: undefined } {
  const { summaries_us: _omit, ...rest } = r;
  return rest;
}
