import type { MountWindow, Visitor, WindowProps } from '../lib/types';
import { bot, botError } from './bot';
import { pickLanguage, type Texts } from '../lib/i18n';
import { apiOrigin, botId, mode, script } from './discovery';
import { button, paint, setLabels } from './launcher';
import { mark, report, safe } from './safe';
import { addCss, panel } from './shadow';

/**
 * The chat window chunk of each language, relative to widget.js; set at build time (build.mjs).
 * One is imported: the language the owner fixed, else the visitor's (lib/i18n.ts).
 */
declare const __WINDOW_CHUNKS__: Record<string, string>;

/** Whether the chat window is open (the preview and inline modes open it at once, index.ts). */
export let open = false;
/** Set once the widget is removed: a chunk arriving late mounts nothing. */
let removed = false;
let renderWindow: ReturnType<MountWindow> | undefined;
let loading: Promise<void> | undefined;
/** The host page's last Botsmith.send(text), handed to the window (a new object per call). */
let ask: { text: string } | undefined;
/** Who the host page says the visitor is (Botsmith.identify). */
let visitor: Visitor | undefined;

const onClose = safe(() => {
  setOpen(false);
  button?.focus();
});

/** Renders the window with the current state, once its chunk has loaded. */
export function drawWindow(): void {
  if (!renderWindow) return;
  renderWindow({
    botId,
    apiOrigin,
    bot,
    botError,
    open,
    inline: mode == 'inline',
    onClose,
    ask,
    visitor,
  } satisfies WindowProps);
  if (open) requestAnimationFrame(() => mark('open'));
}

/** Imports the window chunk (once; again after a failure) and mounts it into the panel. */
export function loadWindow(): Promise<void> {
  const chunk = __WINDOW_CHUNKS__[pickLanguage(bot?.widgetLanguage, navigator.languages || [], __WINDOW_CHUNKS__)];
  return (loading ??= import(/* @vite-ignore */ new URL(chunk, script.src).href).then(
    (m: { mount: MountWindow; texts: Texts }) => {
      if (removed) return;
      renderWindow = m.mount(panel, addCss);
      setLabels(m.texts);
      paint(open);
    },
    (e: unknown) => {
      loading = undefined; // try again on the next hover or click
      report(e);
    },
  ));
}

/** Opens or closes the window, loading its chunk first if need be, and repaints the launcher. */
export function setOpen(value: boolean): void {
  if (removed) return;
  open = value;
  paint(open);
  if (renderWindow) drawWindow();
  else if (open) void loadWindow().then(safe(drawWindow));
}

/**
 * The one global the widget defines (docs/product.md#the-widgets-api-for-host-pages), for the
 * first floating widget of the page: a host page may open it from its own button, close it,
 * or send a message as if the visitor had typed it.
 */
export const hostApi = {
  open: safe(() => setOpen(true)),
  close: safe(() => setOpen(false)),
  send: safe((text: unknown) => {
    ask = { text: String(text) };
    setOpen(true);
  }),
  /**
   * Labels the visitor's conversation in the owner's inbox (`{name, email}`), or vouches for them
   * with the owner's server's proof (`{token}` or `{userId, userHash, name, email}`:
   * docs/product.md#verified-visitors). A copy is kept; the window chunk sends only those fields
   * (lib/api.ts), and the API leaves out what it cannot use, so a host page's mistake never stops a chat.
   */
  identify: safe((who?: Visitor) => {
    visitor = { ...who };
    drawWindow();
  }),
};

/** The widget is being removed: the window goes for good, and a chunk still on its way is not mounted. */
export function unmountWindow(): void {
  removed = true;
  try {
    renderWindow?.(null);
  } catch (e) {
    report(e);
  }
}
