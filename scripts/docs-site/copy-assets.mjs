// Puts the mermaid build beside render-mermaid.js in the built site, so diagrams render without a network.
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);
const root = resolve(import.meta.dirname, '../..');
copyFileSync(
  require.resolve('mermaid/dist/mermaid.min.js'),
  resolve(root, 'docs-site/assets/mermaid.min.js'),
);
