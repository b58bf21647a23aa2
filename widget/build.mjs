/**
 * `npm run build`: the chat window once per language in src/lang/ (English first: its pass
 * empties dist/), then the loader, which bakes in the window chunks' names. See vite.config.ts.
 */
import { readdirSync } from 'node:fs';
import { build } from 'vite';

const languages = readdirSync(new URL('src/lang', import.meta.url))
  .filter((name) => /^[a-z]{2}\.ts$/.test(name))
  .map((name) => name.slice(0, 2))
  .sort((a, b) => (a == 'en' ? -1 : b == 'en' ? 1 : a.localeCompare(b)));

for (const language of languages) await build({ mode: `window-${language}`, logLevel: 'warn' });
await build({ mode: 'loader' });
