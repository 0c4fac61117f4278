// A camera message as the policy takes it: uint8 RGB, HWC, at the size the policy was trained on.
// sensor_msgs/Image comes in the camera's encoding with padded rows; sensor_msgs/CompressedImage as
// JPEG or PNG (decoded with jpeg-js and pngjs, both pure JavaScript). Resizing keeps the aspect
// ratio and pads with black, as openpi's clients do before they send a frame (resize_with_pad).
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

export interface RawImageMessage {
  readonly height: number;
  readonly width: number;
  readonly encoding: string;
  /** Bytes per row (rows may be padded). */
  readonly step: number;
  readonly data: Uint8Array;
}

export interface CompressedImageMessage {
  /** `jpeg`, `png`, or ROS's longer forms such as `bgr8; jpeg compressed bgr8`. */
  readonly format: string;
  readonly data: Uint8Array;
}

export interface RgbImage {
  readonly height: number;
  readonly width: number;
  /** height × width × 3 bytes, rows unpadded. */
  readonly data: Uint8Array;
}

export class CameraImageError extends Error {
  override readonly name = 'CameraImageError';
}

/** Channel order of each raw encoding the node reads: where R, G and B sit, and bytes per pixel. */
const RAW_LAYOUT: Readonly<Record<string, { r: number; g: number; b: number; bytes: number }>> = {
  rgb8: { r: 0, g: 1, b: 2, bytes: 3 },
  bgr8: { r: 2, g: 1, b: 0, bytes: 3 },
  rgba8: { r: 0, g: 1, b: 2, bytes: 4 },
  bgra8: { r: 2, g: 1, b: 0, bytes: 4 },
  mono8: { r: 0, g: 0, b: 0, bytes: 1 },
};

export const RAW_ENCODINGS: readonly string[] = Object.keys(RAW_LAYOUT);

/** A raw Image as packed RGB; an encoding the node does not read is an error naming it. */
export function rawToRgb(m: RawImageMessage): RgbImage {
  const layout = RAW_LAYOUT[m.encoding];
  if (!layout) throw new CameraImageError(`image encoding "${m.encoding}" is not one the node reads (${RAW_ENCODINGS.join(', ')})`);
  if (m.step < m.width * layout.bytes || m.data.byteLength < m.step * m.height) {
    throw new CameraImageError(
      `image of ${m.width}×${m.height} ${m.encoding} with step ${m.step} needs ${m.step * m.height} bytes, got ${m.data.byteLength}`,
    );
  }
  return packRgb(m.width, m.height, m.data, m.step, layout);
}

/** A CompressedImage (JPEG or PNG) as packed RGB. */
export function compressedToRgb(m: CompressedImageMessage): RgbImage {
  const format = m.format.toLowerCase();
  if (format.includes('jpeg') || format.includes('jpg')) {
    const d = jpeg.decode(m.data, { useTArray: true, formatAsRGBA: true });
    return packRgb(d.width, d.height, d.data, d.width * 4, RAW_LAYOUT.rgba8!);
  }
  if (format.includes('png')) {
    const d = PNG.sync.read(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength));
    return packRgb(d.width, d.height, d.data, d.width * 4, RAW_LAYOUT.rgba8!);
  }
  throw new CameraImageError(`compressed image format "${m.format}" is neither JPEG nor PNG`);
}

function packRgb(
  width: number,
  height: number,
  src: Uint8Array,
  step: number,
  l: { r: number; g: number; b: number; bytes: number },
): RgbImage {
  const out = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    let i = y * step;
    let o = y * width * 3;
    for (let x = 0; x < width; x++, i += l.bytes, o += 3) {
      out[o] = src[i + l.r]!;
      out[o + 1] = src[i + l.g]!;
      out[o + 2] = src[i + l.b]!;
    }
  }
  return { width, height, data: out };
}

/**
 * Scales `img` (bilinear) to fit `height` × `width` with its aspect ratio kept, centred, the rest
 * black, into `out` (height × width × 3 bytes, reused frame after frame).
 */
export function resizeWithPad(img: RgbImage, height: number, width: number, out: Uint8Array): Uint8Array {
  const scale = Math.min(width / img.width, height / img.height);
  const w = Math.max(1, Math.round(img.width * scale));
  const h = Math.max(1, Math.round(img.height * scale));
  const left = Math.floor((width - w) / 2);
  const top = Math.floor((height - h) / 2);
  out.fill(0);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(img.height - 1, Math.max(0, ((y + 0.5) * img.height) / h - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(img.height - 1, y0 + 1);
    const fy = sy - y0;
    for (let x = 0; x < w; x++) {
      const sx = Math.min(img.width - 1, Math.max(0, ((x + 0.5) * img.width) / w - 0.5));
      const x0 = Math.floor(sx);
      const x1 = Math.min(img.width - 1, x0 + 1);
      const fx = sx - x0;
      const o = ((top + y) * width + left + x) * 3;
      const a = (y0 * img.width + x0) * 3; // the four neighbours' first bytes
      const b = (y0 * img.width + x1) * 3;
      const c = (y1 * img.width + x0) * 3;
      const d = (y1 * img.width + x1) * 3;
      for (let k = 0; k < 3; k++) {
        const src = img.data;
        const v = (1 - fy) * ((1 - fx) * src[a + k]! + fx * src[b + k]!) + fy * ((1 - fx) * src[c + k]! + fx * src[d + k]!);
        out[o + k] = Math.round(v);
      }
    }
  }
  return out;
}
