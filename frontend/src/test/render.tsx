import { ThemeProvider } from '@mui/material/styles';
import { render } from '@testing-library/react';
import { SnackbarProvider } from 'notistack';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { App } from '../App';
import { routes } from '../routes';
import { theme } from '../theme/theme';

/** Renders the whole app (theme, toasts, router) at `path`, as a visitor opening that URL. */
export function renderRoute(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  return { router, ...render(<App router={router} />) };
}

/** A page the code under test may send the visitor to, drawn as a heading the test looks for. */
type StandIn = readonly [path: string, text: string];

/** `element` at `route` (opened as `path`), with theme, toasts and stand-ins for the pages it may go to. */
function renderWithStandIns(route: string, element: ReactElement, path: string, standIns: readonly StandIn[]) {
  const router = createMemoryRouter(
    [
      { path: route, element },
      ...standIns.filter(([p]) => p !== route).map(([p, text]) => ({ path: p, element: <h1>{text}</h1> })),
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

const DASHBOARD_EXITS: readonly StandIn[] = [
  ['/login', 'Login page'],
  ['/complete-setup', 'Complete setup page'],
  ['/setup-success', 'Setup success page'],
  ['/billing-issue', 'Billing issue page'],
  ['/', 'Home page'],
];

/**
 * Test helper: `element` at /dashboard (or `path`, one of the dashboard's sections), with theme,
 * toasts and stand-ins for where it may send the owner.
 */
export function renderAtDashboard(element: ReactElement, path = '/dashboard') {
  return renderWithStandIns('/dashboard/:section?', element, path, DASHBOARD_EXITS);
}

const AUTH_EXITS: readonly StandIn[] = [
  ['/dashboard', 'Dashboard page'],
  ['/billing-issue', 'Billing issue page'],
  ['/setup-success', 'Setup success page'],
  ['/complete-setup', 'Complete setup page'],
  ['/login', 'Login page'],
  ['/signup', 'Signup page'],
  ['/forgot-password', 'Forgot password page'],
];

/** Test helper: an auth page `element` at `route` (opened as `path`), with stand-ins for the pages it may go to. */
export function renderAuthPage(route: string, element: ReactElement, path = route) {
  return renderWithStandIns(route, element, path, AUTH_EXITS);
}

const BILLING_EXITS: readonly StandIn[] = [
  ['/dashboard', 'Dashboard page'],
  ['/setup-success', 'Setup success page'],
  ['/login', 'Login page'],
];

/** Test helper: a billing page `element` at `path`, with stand-ins for the pages the billing flow goes to. */
export function renderBillingPage(path: string, element: ReactElement) {
  return renderWithStandIns(path, element, path, BILLING_EXITS);
}
