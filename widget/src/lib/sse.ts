/**
 * An incremental server-sent events parser (the HTML spec's event stream interpretation, minus
 * `id`/`retry`, which a one-shot chat reply does not use). Network chunks may split anywhere,
 * including between the `\r` and `\n` of a line ending; data lines of one event are joined with
 * `\n`; lines starting with `:` are comments; an event is dispatched at a blank line.
 */
export interface SseParser {
  push(chunk: string): void;
  /** The stream ended: a final line without its line ending still counts, an unterminated event does not. */
  end(): void;
}

export function createSseParser(onEvent: (event: string, data: string) => void): SseParser {
  let buf = '';
  let event = '';
  let data: string[] = [];

  const line = (l: string): void => {
    if (!l) {
      if (data.length) onEvent(event || 'message', data.join('\n'));
      event = '';
      data = [];
      return;
    }
    if (l[0] == ':') return;
    const i = l.indexOf(':');
    const field = i < 0 ? l : l.slice(0, i);
    let value = i < 0 ? '' : l.slice(i + 1);
    if (value[0] == ' ') value = value.slice(1);
    if (field == 'event') event = value;
    else if (field == 'data') data.push(value);
  };

  const drain = (final: boolean): void => {
    for (;;) {
      const cr = buf.indexOf('\r');
      const lf = buf.indexOf('\n');
      const i = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
      if (i < 0) break;
      // A trailing '\r' may be the first half of '\r\n': wait for the next chunk.
      if (i == cr && i == buf.length - 1 && !final) break;
      line(buf.slice(0, i));
      buf = buf.slice(i + (buf[i] == '\r' && buf[i + 1] == '\n' ? 2 : 1));
    }
  };

  return {
    push(chunk) {
      buf += chunk;
      drain(false);
    },
    end() {
      drain(true);
      if (buf) line(buf);
      buf = '';
    },
  };
}
