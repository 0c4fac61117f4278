// Entry point: mounts the console. The page has exactly this one module script (the server's CSP
// allows no inline script), and the stylesheet is linked from index.html.
import { render } from 'preact';
import { App } from './app';

const root = document.getElementById('app');
if (root) render(<App />, root);
