// A top-down 2-D view for browsers without WebGL (some headless ones): the table from above, the
// gripper's path, the objects as squares and the gripper as a ring whose size tells its height.
import type { EpisodeStep } from '../../../contract';
import { OBJECT_SIZE, objectColor, position, type Workspace } from './replay-bounds';

export function drawTopView(canvas: HTMLCanvasElement, steps: readonly EpisodeStep[], ws: Workspace, index: number): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const { width, height } = canvas;
  const pad = 24;
  const scale = Math.min(width - 2 * pad, height - 2 * pad) / (ws.size * 1.2);
  const toPx = (x: number, y: number): [number, number] => [
    width / 2 + (x - ws.centre[0]) * scale,
    height / 2 - (y - ws.centre[1]) * scale,
  ];
  ctx.fillStyle = '#f5f7fa';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#efe6d8';
  ctx.fillRect(pad, pad, width - 2 * pad, height - 2 * pad);

  ctx.strokeStyle = '#9aa5b1';
  ctx.lineWidth = 1;
  ctx.beginPath();
  steps.forEach((s, i) => {
    const g = position(s.gripper);
    if (!g) return;
    const [px, py] = toPx(g[0], g[1]);
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  });
  ctx.stroke();

  const step = steps[index];
  if (!step) return;
  const side = Math.max(6, OBJECT_SIZE * scale);
  ws.objectNames.forEach((name, i) => {
    const p = position(step.objects[name]);
    if (!p) return;
    const [px, py] = toPx(p[0], p[1]);
    ctx.fillStyle = objectColor(i);
    ctx.fillRect(px - side / 2, py - side / 2, side, side);
  });
  const g = position(step.gripper);
  if (g) {
    const [px, py] = toPx(g[0], g[1]);
    const lift = Math.max(0, g[2] - ws.tableZ);
    ctx.strokeStyle = '#1f2933';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(px, py, 4 + lift * scale * 0.3, 0, 2 * Math.PI);
    ctx.stroke();
  }
  ctx.fillStyle = '#52606d';
  ctx.font = '12px system-ui, sans-serif';
  ctx.fillText('top view (WebGL unavailable): ring size = gripper height', pad, height - 8);
}
