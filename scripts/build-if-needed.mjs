#!/usr/bin/env node
/**
 * `npm start` runs this first: builds the widget, frontend and backend when a build output is
 * missing or older than its sources, so a fresh clone needs only `npm install && npm start`.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const parts = [
  // Each part depends on the contract's sources: the widget and the frontend compile them, and the
  // backend's build compiles them to contract/dist first, which it runs on.
  {
    name: 'widget',
    output: 'widget/dist/widget.js',
    sources: ['widget/src', 'widget/vite.config.ts', 'widget/package.json', 'contract/src'],
  },
  {
    name: 'frontend',
    output: 'frontend/dist/index.html',
    sources: [
      'frontend/src',
      'frontend/index.html',
      'frontend/public',
      'frontend/vite.config.ts',
      'frontend/package.json',
      'contract/src',
    ],
  },
  {
    name: 'backend',
    output: 'backend/dist/bundle/main.mjs',
    sources: ['backend/src', 'backend/package.json', 'contract/src'],
  },
];

function newest(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(target).reduce((max, entry) => Math.max(max, newest(path.join(target, entry))), stat.mtimeMs);
}

for (const part of parts) {
  const built = fs.existsSync(part.output) ? fs.statSync(part.output).mtimeMs : 0;
  const changed = Math.max(...part.sources.map(newest));
  if (built >= changed) continue;
  process.stdout.write(`Building the ${part.name} (${built ? 'sources changed' : 'first run'})...\n`);
  execSync(`npm run build -w ${part.name}`, { stdio: 'inherit' });
}
