import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createMemoryRouter } from 'react-router-dom';
import { App } from './App';
import {
  AT_MOST_768,
  DEMO_BOT_ID,
  FAN_VISIBILITY_THRESHOLD,
  MOBILE_FAN_DELAY_MS,
} from './features/landing/landingContent';
import { routes } from './routes';

export interface PrerenderedPage {
  /** The markup of #root. */
  html: string;
  /** One `<style>` element with every rule the markup uses, in the form Emotion hydrates on the client. */
  styles: string;
  /** The bot whose chat bubble the landing page shows (its widget embed is written into the HTML). */
  widgetBotId: number;
  /** When the example cards fan out (useFanOut): the landing page's boot module does it before the app runs. */
  fan: { narrow: string; delayMs: number; threshold: number };
}

/**
 * Renders `/` to HTML at build time (scripts/prerender.mjs), so that phones see the landing page
 * before its JavaScript arrives; main.tsx then hydrates it. `prerender` waits for the lazy
 * sections, so the whole page is in the HTML. The tree is the one main.tsx renders, with a memory
 * router on `/` instead of the browser's.
 */
export async function prerenderLanding(): Promise<PrerenderedPage> {
  // `compat` makes Emotion record the rules in the cache instead of writing <style> elements
  // between the markup (which the client would see as a hydration mismatch).
  const cache = createCache({ key: 'css' });
  cache.compat = true;
  const router = createMemoryRouter(routes, { initialEntries: ['/'] });
  const errors: unknown[] = [];
  const { prelude } = await prerender(
    <StrictMode>
      <CacheProvider value={cache}>
        <App router={router} />
      </CacheProvider>
    </StrictMode>,
    // One piece: no boundary moved to the end of the document behind an inline reveal script.
    { onError: (error) => void errors.push(error), progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  // React would otherwise leave a failed section to the client; a build must not ship that silently.
  if (errors.length > 0) throw new AggregateError(errors, 'The landing page could not be prerendered.');
  const html = await new Response(prelude).text();
  // Only the rules the markup uses (rendering also inserted those of fallbacks never shown), plus
  // the global ones and keyframes, which no class names: what @emotion/server's extractCritical keeps.
  const used = new Set([...html.matchAll(/css-([a-zA-Z0-9-_]+)/g)].map((match) => match[1]));
  const ids = Object.keys(cache.inserted).filter(
    (id) => typeof cache.inserted[id] === 'string' && (used.has(id) || cache.registered[`css-${id}`] === undefined),
  );
  const css = ids.map((id) => cache.inserted[id] as string).join('');
  // Emotion's client cache adopts `style[data-emotion="css <ids>"]` and skips inserting those rules again.
  return {
    html,
    styles: `<style data-emotion="css ${ids.join(' ')}">${css}</style>`,
    widgetBotId: DEMO_BOT_ID,
    fan: { narrow: AT_MOST_768, delayMs: MOBILE_FAN_DELAY_MS, threshold: FAN_VISIBILITY_THRESHOLD },
  };
}
