/**
 * The loader: dist/widget.js, the only file a host page downloads up front.
 *
 *   <script src="https://HOST/widget.js" data-bot-id="ID" async></script>
 *
 * It finds its own tag, takes the API origin from its own `src`, fetches the bot's public face
 * and draws the launcher in a shadow root. The chat window (Preact) is a separate ES module under
 * widget-assets/, imported from the same origin on the launcher's first hover, focus or click.
 * Plain DOM code, no framework, to stay under 3 KB gzip. Nothing here may throw into the host
 * page: every entry point (top level, promise callbacks, event handlers) goes through `safe`.
 *
 * Attributes: data-bot-id (required); data-preview="true" (dashboard live preview: opens at once,
 * accepts unsaved styling through a `botsmith:preview` window event); data-inline="true" (the
 * /widget page: the window alone, open, fixed bottom right). In every mode the widget goes away
 * when its script tag is removed. See widget/README.md.
 *
 * It defines no global at all. The page's own DOM is the registry: each widget is a
 * `<botsmith-widget data-bot data-mode data-side>` element, so a snippet pasted twice renders one
 * widget, and several bots on one side stack instead of overlapping.
 */
import { ANIMATIONS } from '@botsmith/contract';
import css from './styles/launcher.css?inline';
import { iconUrl, launcherVars } from './lib/theme';
import { CHAT_ICON, CLOSE_ICON, icon } from './loader/icons';
import { fetchBot } from './lib/api';
import { mark, report, safe } from './loader/safe';
import type { MountWindow, PublicBot, WindowProps } from './lib/types';

const TAG = 'botsmith-widget';
/** Dispatched on a widget's element to remove it (a newer preview of the same bot replaces it). */
const DESTROY = 'botsmith:destroy';

/** The chat window chunk's file name, relative to widget.js; set at build time (vite.config.ts). */
declare const __WINDOW_CHUNK__: string;

type Mode = 'float' | 'preview' | 'inline';

function start(script: HTMLScriptElement): void {
  const data = script.dataset;
  const botId = data.botId;
  if (!botId) return;
  const mode: Mode = data.inline == 'true' ? 'inline' : data.preview == 'true' ? 'preview' : 'float';
  const apiOrigin = new URL(script.src).origin;
  const chunkUrl = new URL(__WINDOW_CHUNK__, script.src).href;
  let bot: Partial<PublicBot> | null = null;
  let botError = '';
  let open = mode != 'float';
  let dead = false;
  let side = 'right';
  let host: HTMLElement | undefined;
  let root: ShadowRoot;
  let wrap: HTMLDivElement;
  let button: HTMLButtonElement | undefined;
  let panel: HTMLDivElement;
  let renderWindow: ReturnType<MountWindow> | undefined;
  let loading: Promise<void> | undefined;
  let watcher: MutationObserver | undefined;

  function addCss(text: string): void {
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

  function paint(): void {
    const b = bot ?? {};
    const vars = launcherVars(b);
    for (const k in vars) wrap.style.setProperty(k, vars[k]);
    // The preview may move the widget to the other side.
    host!.dataset.side = side = b.widgetPosition == 'left' ? 'left' : 'right';
    wrap.className = `bs ${side}${open ? ' open' : ''}`;
    if (!button) return;
    // styles/launcher.css has one class per animation.
    const cls = 'l a-' + (ANIMATIONS.includes(b.animation!) ? b.animation : 'none');
    if (button.className != cls) {
      button.className = cls;
      // Restart the animation so the preview shows each newly chosen one.
      button.style.animation = 'none';
      void button.offsetWidth;
      button.style.animation = '';
    }
    button.setAttribute('aria-label', open ? 'Close chat' : `Open chat with ${b.name || 'us'}`);
    button.setAttribute('aria-expanded', String(open));
    const src = iconUrl(b.bubbleIcon, apiOrigin);
    if (open || !src) button.replaceChildren(icon(open ? CLOSE_ICON : CHAT_ICON));
    else {
      const img = document.createElement('img');
      img.src = src;
      img.alt = '';
      // Blocked by the host's img-src, or gone: the default icon rather than a broken image.
      img.onerror = () => button?.replaceChildren(icon(CHAT_ICON));
      button.replaceChildren(img);
    }
  }

  function draw(): void {
    if (!renderWindow) return;
    renderWindow({
      botId: botId!,
      apiOrigin,
      bot,
      botError,
      open,
      inline: mode == 'inline',
      onClose: safe(() => {
        setOpen(false);
        button?.focus();
      }),
    } satisfies WindowProps);
    if (open) requestAnimationFrame(() => mark('open'));
  }

  function load(): Promise<void> {
    return (loading ??= import(/* @vite-ignore */ chunkUrl).then(
      (m: { mount: MountWindow }) => {
        if (!dead) renderWindow = m.mount(panel, addCss);
      },
      (e: unknown) => {
        loading = undefined; // try again on the next hover or click
        report(e);
      },
    ));
  }

  function setOpen(value: boolean): void {
    if (dead || !host) return;
    open = value;
    paint();
    if (renderWindow) draw();
    else if (open) void load().then(safe(draw));
  }

  function destroy(): void {
    dead = true;
    watcher?.disconnect();
    removeEventListener('botsmith:preview', onPreview);
    try {
      renderWindow?.(null);
    } catch (e) {
      report(e);
    }
    host?.remove();
  }

  const onPreview = safe((e: Event) => {
    const detail: unknown = (e as CustomEvent).detail;
    if (!detail || typeof detail != 'object') return;
    const d = detail as Partial<PublicBot> & { botId?: unknown };
    // Loose equality on purpose: the dashboard may pass the id as a number.
    if (d.botId != null && d.botId != botId) return;
    bot = { ...bot, ...d };
    paint();
    draw();
  });

  const mount = safe(() => {
    if (dead) return;
    side = bot?.widgetPosition == 'left' ? 'left' : 'right';
    let slot = 0;
    for (const w of document.querySelectorAll<HTMLElement>(TAG)) {
      const d = w.dataset;
      if (d.bot == botId && d.mode == mode) {
        // The same snippet twice is one widget; a newer preview or inline window replaces the old one.
        if (mode == 'float') return;
        w.dispatchEvent(new Event(DESTROY));
      } else if (d.mode != 'inline' && d.side == side) slot++;
    }
    host = document.createElement(TAG);
    Object.assign(host.dataset, { bot: botId, mode, side });
    host.addEventListener(DESTROY, destroy);
    root = host.attachShadow({ mode: 'open' });
    addCss(css);
    wrap = document.createElement('div');
    panel = document.createElement('div');
    // Several floating bots on one side stack upwards instead of covering each other.
    wrap.style.setProperty('--slot', String(slot));
    if (mode != 'inline') {
      button = document.createElement('button');
      button.type = 'button';
      button.setAttribute('aria-haspopup', 'dialog');
      const prefetch = safe(() => void load());
      for (const ev of ['pointerenter', 'focus', 'touchstart'])
        button.addEventListener(ev, prefetch, { passive: true });
      button.addEventListener(
        'click',
        safe(() => {
          mark('click');
          setOpen(!open);
        }),
      );
      wrap.append(button);
    }
    wrap.append(panel);
    root.append(wrap);
    paint();
    document.body.append(host);
    requestAnimationFrame(() => mark('launcher'));

    if (mode != 'float') void load().then(safe(draw));
    // The widget lives as long as its script tag: single-page apps (our landing page, the
    // dashboard's preview, the /widget page) remove the tag to remove the widget.
    watcher = new MutationObserver(safe(() => script.isConnected || destroy()));
    watcher.observe(document, { childList: true, subtree: true });
    if (mode == 'preview') addEventListener('botsmith:preview', onPreview);
  });

  fetchBot(apiOrigin, botId)
    .then(
      safe((r) => {
        if (r.bot) bot = r.bot;
        else botError = r.error;
        // A hidden bot (over its budget) shows nothing; the owner's preview still shows it.
        if (bot?.hidden && mode != 'preview') return;
        if (document.body) mount();
        else addEventListener('DOMContentLoaded', mount);
      }),
    )
    .catch(report);
}

try {
  mark('exec');
  // Set while a classic script runs, which this IIFE always is (async and defer included).
  const script = document.currentScript as HTMLScriptElement | null;
  if (script) start(script);
} catch (e) {
  report(e);
}
