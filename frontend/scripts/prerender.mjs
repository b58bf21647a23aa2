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
const { html, styles, widgetBotId, fan } = await prerenderLanding();

const shell = await fs.readFile(path.join(dist, 'index.html'), 'utf8');
if (!shell.includes('<div id="root"></div>')) throw new Error('dist/index.html has no empty <div id="root"></div>.');
// The prerendered markup is the first paint, and on a phone the app's JavaScript (React, MUI and
// Emotion to parse, then hydration) costs more main thread than the page itself: landing.html loads
// one tiny module instead, which starts the app at the visitor's first interaction (touch, scroll,
// key, mouse), and holds a click made before the app has hydrated, to replay it once it has. Links
// in the markup are plain links; our own chat bubble is a plain embed in the HTML, as on a
// customer's site (docs/decisions/0018-landing-page-javascript.md).
const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(shell)?.[1];
if (!entry) throw new Error('dist/index.html has no module entry script.');
const chunks = [...shell.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);

/* global window, document, Element, IntersectionObserver, addEventListener, removeEventListener -- startOnInteraction runs in the browser. */

/** Runs in the browser (serialized into the boot module): starts the app once, at the first interaction. */
function startOnInteraction(chunks, entry, fan) {
  // The example cards fan out as useFanOut would (its CSS follows the fan's data-fanned), so that
  // a visitor who has not touched the page yet sees them fan out all the same.
  const cards = document.querySelector('div[data-fanned="false"]');
  if (cards) {
    const spread = () => cards.setAttribute('data-fanned', 'true');
    if (window.matchMedia(fan.narrow).matches) setTimeout(spread, fan.delayMs);
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting && entry.intersectionRatio >= fan.threshold)) return;
        observer.disconnect();
        spread();
      },
      { threshold: fan.threshold },
    );
    observer.observe(cards);
  }

  const triggers = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'wheel', 'scroll', 'focusin'];
  let held = null;
  const hold = (event) => {
    // A click in the page before the app can handle it: keep it for the app (links too, so that a
    // call to action is counted and routed as it would be later). Ctrl/Cmd/Shift/middle clicks open
    // links elsewhere as the browser always does.
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    const target = event.target instanceof Element ? event.target.closest('a[href], button, [role="button"]') : null;
    if (!target || !document.getElementById('root').contains(target)) return;
    event.preventDefault();
    event.stopPropagation();
    held = target;
  };
  const start = () => {
    for (const type of triggers) removeEventListener(type, start, true);
    for (const href of chunks) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.append(link);
    }
    const replay = () => {
      removeEventListener('click', hold, true);
      // React hydrates the part a replayed click lands in at once; the short wait lets the parts
      // that hydrate near the screen (HydrateWhenNear) see that they are. Should the app fail to
      // load, a held link is followed as the browser would have.
      const idle = window.requestIdleCallback ?? ((callback) => setTimeout(callback, 100));
      idle(() => held?.click(), { timeout: 500 });
    };
    import(entry).then(replay, replay);
  };
  addEventListener('click', hold, true);
  for (const type of triggers) addEventListener(type, start, { capture: true, passive: true });
}
const boot = `(${startOnInteraction.toString()})(${JSON.stringify(chunks)}, ${JSON.stringify(entry)}, ${JSON.stringify(fan)});\n`;
const bootName = `assets/landing-boot-${createHash('sha256').update(boot).digest('hex').slice(0, 10)}.js`;
await fs.writeFile(path.join(dist, bootName), boot);

const page = shell
  .replace(/\s*<link rel="modulepreload" crossorigin href="[^"]+">/g, '')
  .replace(
    /<script type="module" crossorigin src="[^"]+"><\/script>/,
    () => `<script type="module" src="/${bootName}"></script>`,
  )
  .replace('</head>', () => `    ${styles}\n  </head>`)
  .replace('<div id="root"></div>', () => `<div id="root">${html}</div>`)
  // The embed the landing page's useWidgetScript adopts once the app runs (it adds none of its own).
  .replace('</body>', () => `  <script src="/widget.js" data-bot-id="${widgetBotId}" async></script>\n  </body>`);
await fs.writeFile(path.join(dist, 'landing.html'), page);
await fs.rm(ssrDir, { recursive: true, force: true });
console.log(
  `dist/landing.html: ${(page.length / 1024).toFixed(1)} KiB (markup ${(html.length / 1024).toFixed(1)} KiB, CSS ${(styles.length / 1024).toFixed(1)} KiB)`,
);
