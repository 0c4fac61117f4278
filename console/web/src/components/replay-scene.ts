// The 3-D replay: a table plane, a grid, a box per object, a cone for the gripper with its path as
// a faint line, two lights, a camera looking at the workspace with z up. Nothing animates by
// itself: show(i) places everything at step i and renders once (preserveDrawingBuffer keeps the
// frame for screenshots). Loaded on demand: three.js is the largest part of the console.
import {
  AmbientLight,
  BoxGeometry,
  BufferGeometry,
  Color,
  ConeGeometry,
  DirectionalLight,
  Float32BufferAttribute,
  GridHelper,
  Line,
  LineBasicMaterial,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  PlaneGeometry,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { EpisodeStep } from '../../../contract';
import { OBJECT_SIZE, objectColor, position, type Workspace } from './replay-bounds';

export interface ReplayScene {
  show(index: number): void;
  resize(width: number, height: number): void;
  dispose(): void;
}

export function createReplayScene(canvas: HTMLCanvasElement, steps: readonly EpisodeStep[], ws: Workspace): ReplayScene {
  // throws where the browser has no WebGL; the caller falls back to a 2-D view
  const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
  const scene = new Scene();
  scene.background = new Color('#f5f7fa');

  const camera = new PerspectiveCamera(40, 1, 0.01, 50);
  camera.up.set(0, 0, 1);
  const [cx, cy, cz] = ws.centre;
  camera.position.set(cx + ws.size * 1.4, cy - ws.size * 1.6, cz + ws.size * 1.2);
  const controls = new OrbitControls(camera, canvas);
  controls.target.set(cx, cy, cz);
  controls.update();

  scene.add(new AmbientLight(0xffffff, 0.6));
  const sun = new DirectionalLight(0xffffff, 1.6);
  sun.position.set(cx + 1, cy - 1, cz + 2);
  scene.add(sun);

  const side = ws.size * 2;
  const table = new Mesh(new PlaneGeometry(side, side), new MeshStandardMaterial({ color: '#d9cbb4', roughness: 0.9 }));
  table.position.set(cx, cy, ws.tableZ);
  scene.add(table);
  const grid = new GridHelper(side, Math.round(side / 0.05), 0x9aa5b1, 0xcbd2d9);
  grid.rotation.x = Math.PI / 2; // GridHelper lies in x-z; the table is x-y
  grid.position.set(cx, cy, ws.tableZ + 0.0005);
  scene.add(grid);

  const objects = ws.objectNames.map((name, i) => {
    const mesh = new Mesh(new BoxGeometry(OBJECT_SIZE, OBJECT_SIZE, OBJECT_SIZE), new MeshStandardMaterial({ color: objectColor(i) }));
    mesh.name = name;
    scene.add(mesh);
    return mesh;
  });

  const gripper = new Mesh(new ConeGeometry(0.015, 0.05, 16), new MeshStandardMaterial({ color: '#1f2933' }));
  gripper.rotation.x = -Math.PI / 2; // the cone's tip points along +y; turn it to point down (−z)
  scene.add(gripper);
  const path = steps.map((s) => position(s.gripper)).filter((p) => p !== null);
  const trail = new Line(
    new BufferGeometry().setAttribute('position', new Float32BufferAttribute(path.flat(), 3)),
    new LineBasicMaterial({ color: '#7b8794' }),
  );
  scene.add(trail);
  const drop = new Line(new BufferGeometry().setFromPoints([new Vector3(), new Vector3()]), new LineBasicMaterial({ color: '#52606d' }));
  scene.add(drop);

  let current = 0;
  const render = () => renderer.render(scene, camera);
  controls.addEventListener('change', render);

  return {
    show(index) {
      current = index;
      const step = steps[index];
      if (!step) return;
      objects.forEach((mesh, i) => {
        const p = position(step.objects[ws.objectNames[i]!]);
        mesh.visible = p !== null;
        if (p) mesh.position.set(p[0], p[1], p[2]);
      });
      const g = position(step.gripper);
      gripper.visible = drop.visible = g !== null;
      if (g) {
        gripper.position.set(g[0], g[1], g[2] + 0.025);
        const ends = drop.geometry.getAttribute('position');
        ends.setXYZ(0, g[0], g[1], g[2]);
        ends.setXYZ(1, g[0], g[1], ws.tableZ);
        ends.needsUpdate = true;
      }
      render();
    },
    resize(width, height) {
      renderer.setSize(width, height, false);
      camera.aspect = width / Math.max(1, height);
      camera.updateProjectionMatrix();
      this.show(current);
    },
    dispose() {
      controls.removeEventListener('change', render);
      controls.dispose();
      scene.traverse((o) => {
        if (o instanceof Mesh || o instanceof Line) {
          o.geometry.dispose();
          (Array.isArray(o.material) ? o.material : [o.material]).forEach((m) => m.dispose());
        }
      });
      renderer.dispose();
    },
  };
}
