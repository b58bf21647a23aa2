import { useEffect, useState } from 'react';
import { conversationsApi } from '../../api';

/** How often the sidebar asks again how many conversations wait for the owner. */
export const WAITING_COUNT_REFRESH_MS = 30_000;

/**
 * The number of handed-off conversations whose visitor wrote last (docs/product.md#conversations),
 * read when the dashboard opens and every 30 s; null until known or when it cannot be read. A poll
 * of its own rather than useApiResource: a refresh keeps the last count on screen (no "loading"
 * blink), and a failure only hides the badge (it never sends the owner anywhere).
 */
export function useWaitingCount(): number | null {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    let active = true;
    const read = () => {
      Promise.resolve()
        .then(() => conversationsApi.waitingCount())
        .then(
          (answer) => {
            if (active) setCount(answer.count);
          },
          () => {
            if (active) setCount(null);
          },
        );
    };
    read();
    const timer = setInterval(read, WAITING_COUNT_REFRESH_MS);
    return () => {
      active = false;
      clearInterval(timer);
    };
  }, []);
  return count;
}
