import { useEffect, useState, type RefObject } from 'react';
import { AT_MOST_768, FAN_VISIBILITY_THRESHOLD, MOBILE_FAN_DELAY_MS } from './landingContent';

/**
 * The example cards start stacked and fan out once: when about 30% of the fan is visible, or
 * 1 second after load on windows 768 px or narrower (where the fan is often on the first screen).
 */
export function useFanOut(target: RefObject<Element | null>): boolean {
  const [fanned, setFanned] = useState(() => typeof IntersectionObserver === 'undefined');

  useEffect(() => {
    if (fanned) return;
    const cleanups: Array<() => void> = [];

    if (window.matchMedia?.(AT_MOST_768).matches) {
      const timer = window.setTimeout(() => setFanned(true), MOBILE_FAN_DELAY_MS);
      cleanups.push(() => window.clearTimeout(timer));
    }

    const node = target.current;
    if (node) {
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting && entry.intersectionRatio >= FAN_VISIBILITY_THRESHOLD)) {
            setFanned(true);
          }
        },
        { threshold: FAN_VISIBILITY_THRESHOLD },
      );
      observer.observe(node);
      cleanups.push(() => observer.disconnect());
    }

    return () => cleanups.forEach((cleanup) => cleanup());
  }, [fanned, target]);

  return fanned;
}
