// Writes an episode as an MCAP file: header and summary as metadata records, each step as messages on
// separate channels (observation, action, features by name, critic), plus the gripper's and objects'
// frames and shapes for Foxglove's 3-D panel (foxglove-scene.ts); JSON-encoded, in zstd-compressed
// chunks. Log times count from the episode's start, one control period per step.
//
// append() never blocks the control loop: writes are chained in order behind it, and the file is
// `<path>.partial` until close() (mcap-file.ts).
import type { McapWriter } from '@mcap/core';
import type { EpisodeHeader, EpisodeSummary, StepRecord } from './episode-record.js';
import { featureFields, featureFieldsSchema } from './feature-fields.js';
import { FRAME_TRANSFORMS_SCHEMA, SCENE_UPDATE_SCHEMA, frameTransforms, sceneEntities } from './foxglove-scene.js';
import { McapFile } from './mcap-file.js';

export const CHANNELS = {
  observation: '/zetta/observation',
  action: '/zetta/action',
  features: '/zetta/features',
  critic: '/zetta/critic',
  /** foxglove.FrameTransforms, every step. */
  transforms: '/tf',
  /** foxglove.SceneUpdate, once at the start (frame-locked entities). */
  scene: '/zetta/scene',
} as const;

type ChannelKey = keyof typeof CHANNELS;

const numbers = { type: 'array', items: { type: 'number' } };
/** Schema name and JSON Schema of each channel; the features' schema names every feature. */
function schemas(header: EpisodeHeader): Record<ChannelKey, { name: string; schema: object }> {
  return {
    observation: {
      name: 'zetta.observation',
      schema: {
        type: 'object',
        properties: {
          step: { type: 'integer' },
          state: numbers,
          objects: numbers,
          milestones: { type: 'array', items: { type: 'string' } },
          reward: { type: 'number' },
        },
      },
    },
    action: {
      name: 'zetta.action',
      schema: {
        type: 'object',
        properties: {
          step: { type: 'integer' },
          action: numbers,
          policy_action: { oneOf: [numbers, { type: 'null' }] },
          source: { type: 'string' },
        },
      },
    },
    features: {
      name: 'zetta.features',
      schema: { type: 'object', properties: { step: { type: 'integer' }, features: featureFieldsSchema(header.featureNames) } },
    },
    critic: {
      name: 'zetta.critic',
      schema: { type: 'object', properties: { step: { type: 'integer' }, proposals: { type: 'array' }, decision: { type: 'object' } } },
    },
    transforms: { name: 'foxglove.FrameTransforms', schema: FRAME_TRANSFORMS_SCHEMA },
    scene: { name: 'foxglove.SceneUpdate', schema: SCENE_UPDATE_SCHEMA },
  };
}

const encoder = new TextEncoder();
/**
 * Numbers are written to a millionth (a micrometre, a microradian, a millionth of an action unit):
 * far below what the sensors resolve or the critic's thresholds separate. The 17 digits JavaScript
 * would print (and float32 noise like 6.5e-19 for a zero) are entropy zstd cannot compress; they
 * made recordings the bulk of a run's disk.
 */
const compact = (x: number) => (Number.isInteger(x) || !Number.isFinite(x) ? x : Math.round(x * 1e6) / 1e6);
const json = (v: unknown) =>
  encoder.encode(
    JSON.stringify(v, (_k, x) => (ArrayBuffer.isView(x) ? Array.from(x as Float32Array, compact) : typeof x === 'number' ? compact(x) : x)),
  );

export class EpisodeWriter {
  private channelIds: Record<ChannelKey, number> | undefined;
  private closed = false;
  private readonly writer: McapWriter;

  private constructor(
    private readonly file: McapFile,
    private readonly nsPerStep: bigint,
    private readonly header: EpisodeHeader,
  ) {
    this.writer = file.writer;
    file.enqueue(() => this.begin(header));
  }

  static async create(path: string, header: EpisodeHeader): Promise<EpisodeWriter> {
    return new EpisodeWriter(await McapFile.open(path), BigInt(Math.round(1e9 / header.controlHz)), header);
  }

  get path(): string {
    return this.file.path;
  }

  /** Queues one step; returns at once. A write failure surfaces at close(). */
  append(step: StepRecord): void {
    if (this.closed) throw new Error(`episode ${this.path} is already closed`);
    this.file.enqueue(() => this.writeStep(step));
  }

  /** Writes the summary, finishes the file and renames it into place. */
  async close(summary: EpisodeSummary): Promise<void> {
    this.closed = true;
    await this.file.finish(() =>
      this.writer.addMetadata({ name: 'zetta.episode.summary', metadata: new Map([['json', JSON.stringify(summary)]]) }),
    );
  }

  /** Ends the file without a summary (the run was interrupted); it stays a `.partial`. */
  async abandon(): Promise<void> {
    this.closed = true;
    await this.file.abandon();
  }

  private async begin(header: EpisodeHeader): Promise<void> {
    await this.writer.start({ profile: '', library: 'zetta' });
    await this.writer.addMetadata({ name: 'zetta.episode.header', metadata: new Map([['json', JSON.stringify(header)]]) });
    const ids: Partial<Record<ChannelKey, number>> = {};
    const all = schemas(header);
    for (const key of Object.keys(CHANNELS) as ChannelKey[]) {
      const schemaId = await this.writer.registerSchema({ name: all[key].name, encoding: 'jsonschema', data: json(all[key].schema) });
      ids[key] = await this.writer.registerChannel({ topic: CHANNELS[key], schemaId, messageEncoding: 'json', metadata: new Map() });
    }
    this.channelIds = ids as Record<ChannelKey, number>;
    await this.writer.addMessage({
      channelId: ids.scene!,
      sequence: 0,
      logTime: 0n,
      publishTime: 0n,
      data: json(sceneEntities(0n, header.objectNames)),
    });
  }

  private async writeStep(s: StepRecord): Promise<void> {
    const ids = this.channelIds!;
    const time = BigInt(s.step) * this.nsPerStep;
    const put = (channelId: number, data: unknown, sequence: number) =>
      this.writer.addMessage({ channelId, sequence, logTime: time, publishTime: time, data: json(data) });
    await put(ids.observation, { step: s.step, state: s.state, objects: s.objects, milestones: s.milestones, reward: s.reward }, s.step);
    await put(ids.action, { step: s.step, action: s.action, policy_action: s.policyAction, source: s.source }, s.step);
    if (s.features) await put(ids.features, { step: s.step, features: featureFields(this.header.featureNames, s.features) }, s.step);
    await put(ids.transforms, frameTransforms(time, s.state, s.objects, this.header.objectNames), s.step);
    if (s.proposals || s.decision)
      await put(ids.critic, { step: s.step, proposals: s.proposals ?? [], decision: s.decision ?? null }, s.step);
  }
}
