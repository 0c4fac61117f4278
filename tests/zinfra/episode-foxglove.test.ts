// A recorded episode opens in Foxglove: read back with @mcap/core alone, its chunks are zstd, its
// features are named fields, its log times count from the episode's start, and it carries the
// gripper's and objects' frames (foxglove.FrameTransforms) and shapes (foxglove.SceneUpdate).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McapIndexedReader, McapStreamReader, type TypedMcapRecord } from '@mcap/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createEnv } from '../../sim/tabletop/index.js';
import { TrivialPolicy } from '../../zinfra/policy/trivial/trivial-policy.js';
import { DECOMPRESS_HANDLERS, compressionReady } from '../../zinfra/recording/chunk-compression.js';
import { readEpisode } from '../../zinfra/recording/episode-reader.js';
import { runEpisode } from '../../zinfra/runtime/run-episode.js';
import { tabletopIO } from '../support/tabletop.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-foxglove-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function recordedEpisode(): Promise<string> {
  const path = join(dir, 'ep.mcap');
  const env = await createEnv();
  try {
    await runEpisode(
      env,
      new TrivialPolicy({ kind: 'closed' }),
      { task: 'spatial/left_cube_in_bowl', seed: 1000 },
      { executeSteps: 5, recordPath: path, ...tabletopIO(), policyLabel: 'null:closed', stepLimit: 12 },
    );
  } finally {
    await env.close();
  }
  return path;
}

function records(path: string): TypedMcapRecord[] {
  const reader = new McapStreamReader({ validateCrcs: true, decompressHandlers: DECOMPRESS_HANDLERS });
  reader.append(readFileSync(path));
  const out: TypedMcapRecord[] = [];
  for (let r: TypedMcapRecord | undefined; (r = reader.nextRecord()); ) out.push(r);
  return out;
}

describe('an episode recording, read back with @mcap/core', () => {
  it('has zstd chunks, named feature fields, episode-relative times and a 3-D scene', async () => {
    const path = await recordedEpisode();
    await compressionReady();
    const all = records(path);
    const bytes = readFileSync(path);
    const indexed = await McapIndexedReader.Initialize({
      readable: {
        size: async () => BigInt(bytes.byteLength),
        read: async (offset, size) => bytes.subarray(Number(offset), Number(offset + size)),
      },
      decompressHandlers: DECOMPRESS_HANDLERS,
    });
    expect(indexed.chunkIndexes.length).toBeGreaterThan(0);
    for (const c of indexed.chunkIndexes) expect(c.compression).toBe('zstd');

    const schemas = new Map(all.flatMap((r) => (r.type === 'Schema' ? [[r.id, r.name] as const] : [])));
    const channels = new Map(
      all.flatMap((r) => (r.type === 'Channel' ? [[r.id, { topic: r.topic, schema: schemas.get(r.schemaId) }] as const] : [])),
    );
    const topics = [...channels.values()];
    expect(topics).toContainEqual({ topic: '/zetta/scene', schema: 'foxglove.SceneUpdate' });
    expect(topics).toContainEqual({ topic: '/tf', schema: 'foxglove.FrameTransforms' });

    const messages = all.flatMap((r) =>
      r.type === 'Message'
        ? [{ topic: channels.get(r.channelId)!.topic, logTime: r.logTime, body: JSON.parse(new TextDecoder().decode(r.data)) }]
        : [],
    );
    expect(messages.map((m) => m.logTime).reduce((a, b) => (a < b ? a : b))).toBe(0n);
    const { header } = await readEpisode(path);
    const features = messages.find((m) => m.topic === '/zetta/features')!.body;
    expect(features.values).toBeUndefined();
    const plain = header.featureNames.filter((n) => !n.includes('.'));
    expect(plain.length).toBeGreaterThan(0);
    for (const name of plain) expect(features.features).toHaveProperty([name]);

    const scene = messages.find((m) => m.topic === '/zetta/scene')!.body;
    const ids = scene.entities.map((e: { id: string }) => e.id);
    expect(ids).toEqual(['gripper', ...header.objectNames]);
    const tf = messages.filter((m) => m.topic === '/tf');
    expect(tf).toHaveLength(12);
    expect(tf[0]!.body.transforms.map((t: { child_frame_id: string }) => t.child_frame_id)).toEqual(['gripper', ...header.objectNames]);
  });

  it('still reads back into the episode record the evolution loop replays', async () => {
    const path = await recordedEpisode();
    const episode = await readEpisode(path);
    expect(episode.steps).toHaveLength(12);
    const f = episode.steps[0]!.features!;
    expect(f).toHaveLength(episode.header.featureNames.length);
    expect(Number.isFinite(f[episode.header.featureNames.indexOf('eef_z')]!)).toBe(true);
  });
});
