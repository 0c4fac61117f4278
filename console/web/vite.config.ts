// Vite config for the operator console's browser front end. Everything resolves from this file's
// own folder, so `npx vite build --config console/web/vite.config.ts` works from any cwd.
// Preact TSX goes through Vite's built-in Oxc transform (automatic runtime), so no plugin is needed.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('../../', import.meta.url));

// In development, `ZETTA_CONSOLE_URL=http://127.0.0.1:PORT npx vite --config …` forwards /api to a
// running console server, so the session cookie stays same-origin.
const apiTarget = process.env['ZETTA_CONSOLE_URL'];

export default defineConfig({
  root: here,
  base: '/',
  publicDir: false,
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'preact' },
  },
  build: {
    outDir: `${repo}dist/console-web`,
    emptyOutDir: true,
    // three.js and Observable Plot are large; the replay scene is split into its own chunk.
    chunkSizeWarningLimit: 800,
  },
  server: apiTarget ? { proxy: { '/api': { target: apiTarget, changeOrigin: false } } } : {},
});
