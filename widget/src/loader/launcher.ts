import { iconUrl } from '../lib/theme';
import { bot, side } from './bot';
import { apiOrigin } from './discovery';
import { CHAT_ICON, CLOSE_ICON, icon } from './icons';
import { mark, safe } from './safe';
import { host, wrap } from './shadow';

/**
 * The launcher's labels: English until the window chunk of the visitor's language arrives (on the
 * first hover, focus or touch), then its texts (`setLabels`), so a German page says "Chat schließen".
 */
let labels = { open: 'Open chat with %s', close: 'Close chat', leave: 'Leave a message' };
export const setLabels = (t: typeof labels) => (labels = t);

/** The launcher button; the inline mode has none. */
export let button: HTMLButtonElement | undefined;

/**
 * The launcher: its first hover, focus or touch calls `prefetch`, a click `toggle` (handed in by
 * index.ts, as chat-window.ts imports this file to repaint the launcher).
 */
export function createLauncher(prefetch: () => void, toggle: () => void): HTMLButtonElement {
  button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('aria-haspopup', 'dialog');
  const onIntent = safe(prefetch);
  for (const ev of ['pointerenter', 'focus', 'touchstart']) button.addEventListener(ev, onIntent, { passive: true });
  button.addEventListener(
    'click',
    safe(() => {
      mark('click');
      toggle();
    }),
  );
  return button;
}

/** Shows the bot's styling and whether the window is open: colours, side, animation, label, icon. */
export function paint(open: boolean): void {
  const b = bot ?? {};
  // The colours of launcher and window, computed by the API (the face's `theme`) or, in the
  // preview, by the dashboard; custom properties inherit into the window chunk's markup.
  const vars = b.theme || {};
  for (const k in vars) wrap.style.setProperty(k, vars[k as keyof typeof vars]);
  // The preview may move the widget to the other side.
  const at = (host!.dataset.side = side());
  wrap.className = `bs ${at}${open ? ' open' : ''}`;
  if (!button) return;
  // styles/launcher.css has one class per animation; a name it does not know animates nothing,
  // and a class name cannot do more than that, so the value needs no checking here.
  const cls = 'l a-' + (b.animation || 'none');
  if (button.className != cls) {
    button.className = cls;
    // Restart the animation so the preview shows each newly chosen one.
    button.style.animation = 'none';
    void button.offsetWidth;
    button.style.animation = '';
  }
  // A bot at its budget that takes leads opens on its lead form (docs/product.md#leads-and-handoff).
  // The label is also the tooltip: the icon alone does not say which of the two it opens.
  const label = open ? labels.close : b.leadOnly ? labels.leave : labels.open.replace('%s', b.name || '');
  button.setAttribute('aria-label', label);
  button.title = label;
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
