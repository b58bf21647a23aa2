import { ThemeProvider } from '@mui/material/styles';
import { render } from '@testing-library/react';
import { SnackbarProvider } from 'notistack';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { theme } from '../../theme/theme';

const DESTINATIONS = [
  ['/dashboard', 'Dashboard page'],
  ['/billing-issue', 'Billing issue page'],
  ['/setup-success', 'Setup success page'],
  ['/complete-setup', 'Complete setup page'],
  ['/login', 'Login page'],
  ['/signup', 'Signup page'],
  ['/forgot-password', 'Forgot password page'],
] as const;

/** Test helper: `element` at `route` (opened as `path`), with stand-ins for the pages it may go to. */
export function renderAuthPage(route: string, element: ReactElement, path = route) {
  const router = createMemoryRouter(
    [
      { path: route, element },
      ...DESTINATIONS.filter(([p]) => p !== route).map(([p, text]) => ({ path: p, element: <h1>{text}</h1> })),
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <ThemeProvider theme={theme}>
      <SnackbarProvider>
        <RouterProvider router={router} />
      </SnackbarProvider>
    </ThemeProvider>,
  );
  return { router, ...result };
}

/** A promise the test resolves by hand, to look at the page while a request is in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
