import css from '../styles/launcher.css?inline';
import { side } from './bot';
import { botId, mode } from './discovery';

/**
 * The widget's element and its shadow root. The page's own DOM is the registry: each widget is a
 * `<botsmith-widget data-bot data-mode data-side>` element, so a snippet pasted twice renders one
 * widget, and several bots on one side stack instead of overlapping.
 */
const TAG = 'botsmith-widget';
/** Dispatched on a widget's element to remove it (a newer preview of the same bot replaces it). */
const DESTROY = 'botsmith:destroy';

export let host: HTMLElement | undefined;
let root: ShadowRoot;
/** Holds the launcher and the window; carries the bot's colours, side and open state. */
export let wrap: HTMLDivElement;
/** Where the window chunk renders. */
export let panel: HTMLDivElement;

/** Adopts a stylesheet into the shadow root (the window chunk adds its own through this too). */
export function addCss(text: string): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } catch {
    // No constructable stylesheets (Safari < 16.4): a <style> in the shadow root instead.
    const style = document.createElement('style');
    style.textContent = text;
    root.prepend(style);
  }
}

/**
 * Builds the widget's element (not yet on the page) with the launcher's styles and an empty
 * panel; `host` stays unset when this bot's floating widget is already there.
 */
export function createHost(onDestroy: () => void): void {
  const at = side();
  let slot = 0;
  for (const w of document.querySelectorAll<HTMLElement>(TAG)) {
    const d = w.dataset;
    if (d.bot == botId && d.mode == mode) {
      // The same snippet twice is one widget; a newer preview or inline window replaces the old one.
      if (mode == 'float') return;
      w.dispatchEvent(new Event(DESTROY));
    } else if (d.mode != 'inline' && d.side == at) slot++;
  }
  host = document.createElement(TAG);
  Object.assign(host.dataset, { bot: botId, mode, side: at });
  host.addEventListener(DESTROY, onDestroy);
  root = host.attachShadow({ mode: 'open' });
  addCss(css);
  wrap = document.createElement('div');
  panel = document.createElement('div');
  // Several floating bots on one side stack upwards instead of covering each other.
  wrap.style.setProperty('--slot', String(slot));
  wrap.append(panel);
  root.append(wrap);
}
