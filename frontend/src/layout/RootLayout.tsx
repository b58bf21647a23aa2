import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { RouteFallback } from './RouteFallback';

/** Wraps every route: lazy pages load behind one fallback, scroll position is restored on navigation. */
export function RootLayout() {
  return (
    <>
      <Suspense fallback={<RouteFallback />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </>
  );
}
