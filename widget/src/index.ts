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
 * Its one global is `window.Botsmith` (open, close, send, identify), defined by the page's first floating
 * widget for the host page's own buttons; widgets find each other through the DOM
 * (loader/shadow.ts).
 *
 * This file only wires the parts under loader/, one job each, imported in the order a widget
 * comes to life (which is also their order in widget.js): safe (nothing throws into the page),
 * discovery (the script tag), bot (the public face), shadow (the element, its shadow root and
 * styles), launcher, chat-window (open or closed, the lazy chunk), preview (unsaved styling).
 * One run of widget.js serves one script tag, so each part keeps its state in module variables:
 * in the IIFE they are plain local variables that minify to one letter, where an object's
 * property names or a class's methods would stay and cost bytes of the 3 KB.
 */
import { mark, report, safe } from './loader/safe';
import { apiOrigin, botId, discover, mode, script } from './loader/discovery';
import { bot, receive } from './loader/bot';
import { createHost, host, wrap } from './loader/shadow';
import { createLauncher } from './loader/launcher';
import { hostApi, loadWindow, open, setOpen, unmountWindow } from './loader/chat-window';
import { PREVIEW_EVENT, onPreview } from './loader/preview';
import { fetchBot } from './lib/api';
import { WIDGET_CHAT_FRAGMENT } from '@botsmith/contract';

let watcher: MutationObserver | undefined;

type HostWindow = { Botsmith?: typeof hostApi };

function destroy(): void {
  if ((window as HostWindow).Botsmith == hostApi) delete (window as HostWindow).Botsmith;
  unmountWindow();
  watcher?.disconnect();
  removeEventListener(PREVIEW_EVENT, onPreview);
  host?.remove();
}

const mount = safe(() => {
  createHost(destroy);
  if (!host) return;
  if (mode != 'inline')
    wrap.prepend(
      createLauncher(
        () => void loadWindow(),
        () => setOpen(!open),
      ),
    );
  // Paints the launcher; the preview and inline modes start open, so they load the window at once,
  // and so does a page opened from a reply's link (#botsmith-chat=<this bot>, contract widget-link.ts).
  setOpen(mode != 'float' || location.hash == '#' + WIDGET_CHAT_FRAGMENT + botId);
  document.body.append(host);
  requestAnimationFrame(() => mark('launcher'));
  // The widget lives as long as its script tag: single-page apps (our landing page, the
  // dashboard's preview, the /widget page) remove the tag to remove the widget.
  watcher = new MutationObserver(safe(() => script.isConnected || destroy()));
  watcher.observe(document, { childList: true, subtree: true });
  if (mode == 'preview') addEventListener(PREVIEW_EVENT, onPreview);
  else if (mode == 'float') (window as HostWindow).Botsmith ??= hostApi;
});

try {
  mark('exec');
  discover();
  if (botId)
    fetchBot(apiOrigin, botId)
      .then(
        safe((r) => {
          receive(r);
          // A hidden bot (over its budget) shows nothing, unless it takes messages instead
          // (`leadOnly`: the window shows the lead form); the owner's preview still shows it.
          if (bot?.hidden && !bot.leadOnly && mode != 'preview') return;
          if (document.body) mount();
          else addEventListener('DOMContentLoaded', mount);
        }),
      )
      .catch(report);
} catch (e) {
  report(e);
}
