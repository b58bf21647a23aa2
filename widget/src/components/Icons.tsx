/** Inline SVG icons; they take the button's text colour (currentColor). */

/** A 24 px icon of one path, hidden from assistive technology (its button has the label). */
function icon(path: string) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={path} />
    </svg>
  );
}

export const SendIcon = () => icon('M3 20.5 21.5 12 3 3.5v6.6L15.5 12 3 13.9z');

export const NewChatIcon = () => icon('M12 5V2L7 6l5 4V7a5 5 0 1 1-5 5H5a7 7 0 1 0 7-7z');

export const CloseIcon = () =>
  icon('M18.3 5.7 16.9 4.3 12 9.2 7.1 4.3 5.7 5.7l4.9 4.9-4.9 4.9 1.4 1.4 4.9-4.9 4.9 4.9 1.4-1.4-4.9-4.9z');

/** Three dots, for the conversation's menu. */
export const MoreIcon = () =>
  icon('M12 8a2 2 0 1 0 0-4 2 2 0 0 0 0 4zm0 6a2 2 0 1 0 0-4 2 2 0 0 0 0 4zm0 6a2 2 0 1 0 0-4 2 2 0 0 0 0 4z');

/** Thumbs up; turned over (CSS) for thumbs down. */
export const ThumbIcon = () => icon('M1 21h4V9H1zm22-11c0-1-1-2-2-2h-6l1-5-1-2-7 7v12h11l4-8z');
