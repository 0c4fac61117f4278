// Camera frames as the policy takes them: raw encodings with padded rows turned into packed RGB,
// JPEG and PNG decoded, and resizing that keeps the aspect ratio and pads black (openpi's
// resize_with_pad). The compressed frames are made here with the same libraries' encoders.
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { CameraImageError, compressedToRgb, rawToRgb, resizeWithPad } from '../../../zinfra/ros2/camera-image.js';

/** A w×h RGB test pattern: red grows along x, green along y, blue constant. */
function pattern(w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out.set([x * 40, y * 40, 200], (y * w + x) * 3);
  return out;
}

describe('camera frames for the policy', () => {
  it('reads bgr8 with padded rows as packed RGB', () => {
    const step = 2 * 3 + 2; // two bytes of padding per row
    const data = new Uint8Array(step * 2);
    data.set([1, 2, 3, 4, 5, 6], 0);
    data.set([7, 8, 9, 10, 11, 12], step);
    const rgb = rawToRgb({ width: 2, height: 2, encoding: 'bgr8', step, data });
    expect([...rgb.data]).toEqual([3, 2, 1, 6, 5, 4, 9, 8, 7, 12, 11, 10]);
  });

  it('reads mono8 as grey RGB, and refuses an encoding it does not read, naming it', () => {
    const rgb = rawToRgb({ width: 2, height: 1, encoding: 'mono8', step: 2, data: Uint8Array.of(10, 20) });
    expect([...rgb.data]).toEqual([10, 10, 10, 20, 20, 20]);
    expect(() => rawToRgb({ width: 1, height: 1, encoding: '16UC1', step: 2, data: new Uint8Array(2) })).toThrow(
      /"16UC1" is not one the node reads/,
    );
    expect(() => rawToRgb({ width: 4, height: 4, encoding: 'rgb8', step: 12, data: new Uint8Array(10) })).toThrow(CameraImageError);
  });

  it('decodes PNG exactly and JPEG closely', () => {
    const w = 8;
    const h = 4;
    const rgb = pattern(w, h);
    const rgba = new Uint8Array(w * h * 4);
    for (let i = 0; i < w * h; i++) rgba.set([...rgb.subarray(i * 3, i * 3 + 3), 255], i * 4);
    const png = new PNG({ width: w, height: h });
    png.data = Buffer.from(rgba);
    const fromPng = compressedToRgb({ format: 'png', data: PNG.sync.write(png) });
    expect([...fromPng.data]).toEqual([...rgb]);
    const jpg = jpeg.encode({ width: w, height: h, data: rgba }, 95).data;
    const fromJpeg = compressedToRgb({ format: 'rgb8; jpeg compressed bgr8', data: jpg });
    expect([fromJpeg.width, fromJpeg.height]).toEqual([w, h]);
    const worst = fromJpeg.data.reduce((m, v, i) => Math.max(m, Math.abs(v - rgb[i]!)), 0);
    expect(worst).toBeLessThan(40);
    expect(() => compressedToRgb({ format: 'tiff', data: new Uint8Array(4) })).toThrow(/neither JPEG nor PNG/);
  });

  it('resizes keeping the aspect ratio, centred, padded black', () => {
    // 4 wide × 2 high into 4 × 4: the image fills the middle two rows
    const img = { width: 4, height: 2, data: new Uint8Array(4 * 2 * 3).fill(200) };
    const out = resizeWithPad(img, 4, 4, new Uint8Array(4 * 4 * 3).fill(7));
    const row = (y: number) => [...out.subarray(y * 12, y * 12 + 12)];
    expect(row(0)).toEqual(new Array(12).fill(0));
    expect(row(1)).toEqual(new Array(12).fill(200));
    expect(row(2)).toEqual(new Array(12).fill(200));
    expect(row(3)).toEqual(new Array(12).fill(0));
    // a gradient stays a gradient: bilinear, not nearest
    const grad = { width: 2, height: 1, data: Uint8Array.of(0, 0, 0, 200, 200, 200) };
    const wide = resizeWithPad(grad, 2, 4, new Uint8Array(2 * 4 * 3)); // twice the size: fills the frame
    const reds = [0, 1, 2, 3].map((x) => wide[x * 3]!);
    expect(reds[0]).toBe(0);
    expect(reds[3]).toBe(200);
    expect(reds[1]! > 0 && reds[1]! < reds[2]! && reds[2]! < 200).toBe(true);
  });
});
