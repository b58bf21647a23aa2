import { useEffect, useState, type RefObject } from 'react';
import { AT_MOST_768, FAN_VISIBILITY_THRESHOLD, MOBILE_FAN_DELAY_MS } from './landingContent';

/**
 * The example cards start stacked and fan out once: when about 30% of the fan is visible, or
 * 1 second after load on windows 768 px or narrower (where the fan is often on the first screen).
 */
export function useFanOut(target: RefObject<Element | null>): boolean {
  // Stacked at first everywhere, the prerender included: the server has no IntersectionObserver,
  // and a state that differed there would leave the prerendered cards' classes on the hydrated
  // page (React does not patch attributes while hydrating).
  const [fanned, setFanned] = useState(false);

  useEffect(() => {
    if (fanned) return;
    const cleanups: Array<() => void> = [];
    const canObserve = typeof IntersectionObserver !== 'undefined';

    // Without IntersectionObserver (very old browsers) the timer is the only trigger, at any width.
    if (!canObserve || window.matchMedia?.(AT_MOST_768).matches) {
      const timer = window.setTimeout(() => setFanned(true), MOBILE_FAN_DELAY_MS);
      cleanups.push(() => window.clearTimeout(timer));
    }

    const node = target.current;
    if (node && canObserve) {
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
