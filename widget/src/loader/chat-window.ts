import type { MountWindow, WindowProps } from '../lib/types';
import { bot, botError } from './bot';
import { apiOrigin, botId, chunkUrl, mode } from './discovery';
import { button, paint } from './launcher';
import { mark, report, safe } from './safe';
import { addCss, panel } from './shadow';

/** Whether the chat window is open (the preview and inline modes open it at once, index.ts). */
export let open = false;
/** Set once the widget is removed: a chunk arriving late mounts nothing. */
let removed = false;
let renderWindow: ReturnType<MountWindow> | undefined;
let loading: Promise<void> | undefined;

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
  } satisfies WindowProps);
  if (open) requestAnimationFrame(() => mark('open'));
}

/** Imports the window chunk (once; again after a failure) and mounts it into the panel. */
export function loadWindow(): Promise<void> {
  return (loading ??= import(/* @vite-ignore */ chunkUrl).then(
    (m: { mount: MountWindow }) => {
      if (!removed) renderWindow = m.mount(panel, addCss);
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

/** The widget is being removed: the window goes for good, and a chunk still on its way is not mounted. */
export function unmountWindow(): void {
  removed = true;
  try {
    renderWindow?.(null);
  } catch (e) {
    report(e);
  }
}
