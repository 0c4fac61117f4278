// The one MuJoCo WebAssembly instance of this process, and compiling MJCF text into a model.
import loadMujoco, { type MainModule, type MjModel } from 'mujoco-js';
import { MjcfError } from '../errors.js';

let instance: Promise<MainModule> | undefined;

/** Loads mujoco-js once (≈ 0.1–0.2 s); later calls share the instance. */
export function mujoco(): Promise<MainModule> {
  instance ??= loadMujoco();
  return instance;
}

let fileCounter = 0;

/**
 * Compiles MJCF text. The text must already have passed validateMjcf; if MuJoCo still rejects it
 * we say so in words, because its own exception carries no message.
 */
export function compileModel(mj: MainModule, xml: string): MjModel {
  const path = `/zetta_scene_${fileCounter++}.xml`;
  mj.FS.writeFile(path, xml);
  try {
    return mj.MjModel.loadFromXML(path);
  } catch (err) {
    const what = err instanceof Error ? err.message : String((err as { name?: string })?.name ?? err);
    throw new MjcfError(
      `MuJoCo rejected a generated scene that passed validation (${what || 'mjXError'}); first 200 chars: ${xml.slice(0, 200)}`,
    );
  } finally {
    mj.FS.unlink(path);
  }
}
