import { ThemeProvider } from '@mui/material/styles';
import { render } from '@testing-library/react';
import { SnackbarProvider } from 'notistack';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { theme } from '../../theme/theme';

/** Test helper: `element` at `path`, with stand-ins for the pages the billing flow goes to. */
export function renderBillingPage(path: string, element: ReactElement) {
  const router = createMemoryRouter(
    [
      { path, element },
      { path: '/dashboard', element: <h1>Dashboard page</h1> },
      { path: '/setup-success', element: <h1>Setup success page</h1> },
      { path: '/login', element: <h1>Login page</h1> },
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
