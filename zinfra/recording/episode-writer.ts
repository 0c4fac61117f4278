// Writes an episode as an MCAP file: header and summary as metadata records, each step as messages on
// separate channels (observation, action, features, critic), JSON-encoded so Foxglove opens them.
//
// append() never blocks the control loop: writes are chained in order behind it. The file is written
// as `<path>.partial` and renamed on close, so a crash leaves a visibly incomplete episode, never a
// truncated one that passes for complete.
import { open, rename, type FileHandle } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { McapWriter, type IWritable } from '@mcap/core';
import type { EpisodeHeader, EpisodeSummary, StepRecord } from './episode-record.js';

export const CHANNELS = {
  observation: '/zetta/observation',
  action: '/zetta/action',
  features: '/zetta/features',
  critic: '/zetta/critic',
} as const;

const numbers = { type: 'array', items: { type: 'number' } };
const SCHEMAS: Record<keyof typeof CHANNELS, object> = {
  observation: { type: 'object', properties: { step: { type: 'integer' }, state: numbers, objects: numbers, milestones: { type: 'array', items: { type: 'string' } }, reward: { type: 'number' } } },
  action: { type: 'object', properties: { step: { type: 'integer' }, action: numbers, policy_action: { oneOf: [numbers, { type: 'null' }] }, source: { type: 'string' } } },
  features: { type: 'object', properties: { step: { type: 'integer' }, values: numbers } },
  critic: { type: 'object', properties: { step: { type: 'integer' }, proposals: { type: 'array' }, decision: { type: 'object' } } },
};

class FileWritable implements IWritable {
  private offset = 0n;
  constructor(private readonly fh: FileHandle) {}
  async write(buffer: Uint8Array): Promise<unknown> {
    await this.fh.write(buffer);
    this.offset += BigInt(buffer.byteLength);
    return undefined;
  }
  position(): bigint {
    return this.offset;
  }
}

const encoder = new TextEncoder();
const json = (v: unknown) => encoder.encode(JSON.stringify(v, (_k, x) => (ArrayBuffer.isView(x) ? Array.from(x as Float32Array) : x)));

export class EpisodeWriter {
  private tail: Promise<void>;
  private channelIds: Record<keyof typeof CHANNELS, number> | undefined;
  private failed: Error | undefined;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    private readonly writer: McapWriter,
    private readonly nsPerStep: bigint,
    header: EpisodeHeader,
  ) {
    this.tail = this.begin(header);
  }

  static async create(path: string, header: EpisodeHeader): Promise<EpisodeWriter> {
    mkdirSync(dirname(path), { recursive: true });
    const fh = await open(`${path}.partial`, 'w');
    const writer = new McapWriter({ writable: new FileWritable(fh), chunkSize: 256 * 1024 });
    return new EpisodeWriter(path, fh, writer, BigInt(Math.round(1e9 / header.controlHz)), header);
  }

  /** Queues one step; returns at once. A write failure surfaces at close(). */
  append(step: StepRecord): void {
    if (this.closed) throw new Error(`episode ${this.path} is already closed`);
    this.enqueue(() => this.writeStep(step));
  }

  /** Writes the summary, finishes the file and renames it into place. */
  async close(summary: EpisodeSummary): Promise<void> {
    this.closed = true;
    this.enqueue(async () => {
      await this.writer.addMetadata({ name: 'zetta.episode.summary', metadata: new Map([['json', JSON.stringify(summary)]]) });
      await this.writer.end();
    });
    await this.tail;
    await this.fh.close();
    if (this.failed) throw this.failed;
    await rename(`${this.path}.partial`, this.path);
  }

  /** Ends the file without a summary (the run was interrupted); it stays a `.partial`. */
  async abandon(): Promise<void> {
    this.closed = true;
    this.enqueue(() => this.writer.end());
    await this.tail;
    await this.fh.close();
  }

  private enqueue(job: () => Promise<void>): void {
    this.tail = this.tail.then(async () => {
      if (this.failed) return;
      try {
        await job();
      } catch (err) {
        this.failed = err as Error;
      }
    });
  }

  private async begin(header: EpisodeHeader): Promise<void> {
    await this.writer.start({ profile: '', library: 'zetta' });
    await this.writer.addMetadata({ name: 'zetta.episode.header', metadata: new Map([['json', JSON.stringify(header)]]) });
    const ids: Partial<Record<keyof typeof CHANNELS, number>> = {};
    for (const key of Object.keys(CHANNELS) as (keyof typeof CHANNELS)[]) {
      const schemaId = await this.writer.registerSchema({ name: `zetta.${key}`, encoding: 'jsonschema', data: json(SCHEMAS[key]) });
      ids[key] = await this.writer.registerChannel({ topic: CHANNELS[key], schemaId, messageEncoding: 'json', metadata: new Map() });
    }
    this.channelIds = ids as Record<keyof typeof CHANNELS, number>;
  }

  private async writeStep(s: StepRecord): Promise<void> {
    const ids = this.channelIds!;
    const time = BigInt(s.step) * this.nsPerStep;
    const put = (channelId: number, data: unknown, sequence: number) =>
      this.writer.addMessage({ channelId, sequence, logTime: time, publishTime: time, data: json(data) });
    await put(ids.observation, { step: s.step, state: s.state, objects: s.objects, milestones: s.milestones, reward: s.reward }, s.step);
    await put(ids.action, { step: s.step, action: s.action, policy_action: s.policyAction, source: s.source }, s.step);
    if (s.features) await put(ids.features, { step: s.step, values: Array.from(s.features, (v) => (Number.isFinite(v) ? v : null)) }, s.step);
    if (s.proposals || s.decision) await put(ids.critic, { step: s.step, proposals: s.proposals ?? [], decision: s.decision ?? null }, s.step);
  }
}
