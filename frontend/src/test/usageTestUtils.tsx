import { render } from '@testing-library/react';
import { SnackbarProvider } from 'notistack';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ThemeProvider } from '@mui/material/styles';
import { vi } from 'vitest';
import type { UsageHistory } from '../api/types';
import { theme } from '../theme/theme';

/** jsdom has no ResizeObserver; the charts need one to measure their container. */
export function stubResizeObserver(): void {
  class ResizeObserverStub {
    observe = vi.fn();
    unobserve = vi.fn();
    disconnect = vi.fn();
  }
  vi.stubGlobal('ResizeObserver', ResizeObserverStub);
}

/** Renders `element` at /dashboard with theme, toasts and a router that also knows / and /login. */
export function renderWithApp(element: ReactElement) {
  const router = createMemoryRouter(
    [
      { path: '/dashboard', element },
      { path: '/login', element: <h1>Login page</h1> },
      { path: '/', element: <h1>Home page</h1> },
    ],
    { initialEntries: ['/dashboard'] },
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

export function history(overrides: Partial<UsageHistory> = {}): UsageHistory {
  return {
    labels: [
      '2026-11-13',
      '2026-11-14',
      '2026-11-15',
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
    ],
    messageCounts: [0, 0, 0, 0, 0, 0, 0, 1, 0, 3],
    tokensUsed: [0, 0, 0, 0, 0, 0, 0, 150, 0, 420],
    costs: [0, 0, 0, 0, 0, 0, 0, 5, 0, 15],
    ...overrides,
  };
}
