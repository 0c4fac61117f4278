// zstd for MCAP chunks, through Foxglove's own WebAssembly build of the reference library
// (@foxglove/wasm-zstd: the wasm ships inside the package, nothing is fetched or compiled at install
// or run time). Episodes are mostly repeated JSON keys and slowly changing numbers; zstd shrinks
// them several-fold, and Foxglove, the mcap CLI and @mcap/core readers all decompress zstd.
import zstd from '@foxglove/wasm-zstd';
import type { DecompressHandlers } from '@mcap/core';

/** Fast, and most of the gain on repetitive JSON; higher levels cost time on the write path. */
const LEVEL = 3;

/** Resolves once the WebAssembly module is ready; the functions below need it. */
export async function compressionReady(): Promise<void> {
  await zstd.isLoaded;
}

export function compressChunk(chunk: Uint8Array): { compression: string; compressedData: Uint8Array } {
  return { compression: 'zstd', compressedData: zstd.compress(chunk, LEVEL) };
}

export const DECOMPRESS_HANDLERS: DecompressHandlers = {
  zstd: (buffer, decompressedSize) => zstd.decompress(buffer, Number(decompressedSize)),
};
