#!/usr/bin/env node
/**
 * After `vite build` and `vite build --ssr src/entry-prerender.tsx --outDir dist-ssr`: writes
 * dist/landing.html, the SPA shell (dist/index.html) with `/` already rendered into #root and its
 * critical CSS in <head>. The backend serves it for `/` only; every other path keeps the plain shell.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const ssrDir = path.join(root, 'dist-ssr');

// The SSR bundle leaves React, MUI and Emotion external, so Node loads them as they are: without
// this they would run their development builds, and Emotion would add labels to the class names
// (css-<hash>-MuiPaper-root) that the production client never generates. The client would then
// match none of the prerendered rules and insert every one of them again while hydrating.
process.env.NODE_ENV = 'production';

const { prerenderLanding } = await import(pathToFileURL(path.join(ssrDir, 'entry-prerender.js')).href);
const { html, styles } = await prerenderLanding();

const shell = await fs.readFile(path.join(dist, 'index.html'), 'utf8');
if (!shell.includes('<div id="root"></div>')) throw new Error('dist/index.html has no empty <div id="root"></div>.');
// The prerendered markup is the first paint, and the scripts that hydrate it must not compete with
// it on a slow phone connection: landing.html loads one tiny module which, once the page has
// painted, preloads the app's chunks and imports its entry (the chunks index.html names).
const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(shell)?.[1];
if (!entry) throw new Error('dist/index.html has no module entry script.');
const chunks = [...shell.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);
const boot = `const chunks = ${JSON.stringify(chunks)};
const start = () => {
  for (const href of chunks) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  import(${JSON.stringify(entry)});
};
requestAnimationFrame(() => setTimeout(start, 0));
`;
const bootName = `assets/landing-boot-${createHash('sha256').update(boot).digest('hex').slice(0, 10)}.js`;
await fs.writeFile(path.join(dist, bootName), boot);

const page = shell
  .replace(/\s*<link rel="modulepreload" crossorigin href="[^"]+">/g, '')
  .replace(
    /<script type="module" crossorigin src="[^"]+"><\/script>/,
    () => `<script type="module" src="/${bootName}"></script>`,
  )
  .replace('</head>', () => `    ${styles}\n  </head>`)
  .replace('<div id="root"></div>', () => `<div id="root">${html}</div>`);
await fs.writeFile(path.join(dist, 'landing.html'), page);
await fs.rm(ssrDir, { recursive: true, force: true });
console.log(
  `dist/landing.html: ${(page.length / 1024).toFixed(1)} KiB (markup ${(html.length / 1024).toFixed(1)} KiB, CSS ${(styles.length / 1024).toFixed(1)} KiB)`,
);
