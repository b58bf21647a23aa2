import { Suspense, use, useSyncExternalStore, type ReactNode } from 'react';

const waits = new Map<string, Promise<void>>();

/** How far below (or above) the screen a part starts hydrating, so it is live before it is seen. */
const MARGIN = '200px 0px';

function whenNear(name: string, element: Element): Promise<void> {
  let wait = waits.get(name);
  if (!wait) {
    wait = new Promise((resolve) => {
      const observer = new IntersectionObserver(
        (entries) => {
          if (!entries.some((entry) => entry.isIntersecting)) return;
          observer.disconnect();
          resolve();
        },
        { rootMargin: MARGIN },
      );
      observer.observe(element);
    });
    waits.set(name, wait);
  }
  return wait;
}

const subscribeNever = () => () => {};

/** True while React hydrates server markup (it reads the server snapshot then), false once it renders on the client. */
function useHydrating(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => false,
    () => true,
  );
}

function Gate({ name, children }: { name: string; children: ReactNode }) {
  const hydrating = useHydrating();
  // Only while hydrating the prerendered page, in a browser: the prerender itself and a page
  // rendered on the client (a link from /login, the tests) render the part at once.
  // Once made, the same promise is used on every render (React retries the part when it settles,
  // and a settled promise no longer suspends).
  let wait = waits.get(name);
  if (!wait && hydrating && typeof IntersectionObserver !== 'undefined') {
    const element = document.querySelector(`[data-hydrate="${name}"]`);
    if (element?.hasChildNodes()) wait = whenNear(name, element);
  }
  if (wait) use(wait);
  return children;
}

/**
 * Hydrates a part of the prerendered landing page only when it comes near the screen. Until then
 * the server's markup stays as it is (visible, links working, not yet interactive): a phone that
 * opens `/` hydrates the first screen only, instead of spending half a second of main thread on
 * sections nobody has scrolled to. The wrapper `div` is how the part is found before React owns
 * it; it has no style, so the layout is the same with or without it.
 */
export function HydrateWhenNear({
  name,
  fallback,
  children,
}: {
  name: string;
  fallback?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div data-hydrate={name}>
      <Suspense fallback={fallback ?? null}>
        <Gate name={name}>{children}</Gate>
      </Suspense>
    </div>
  );
}
