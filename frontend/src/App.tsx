import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { SnackbarProvider } from 'notistack';
import { RouterProvider } from 'react-router-dom';
import type { DataRouter } from 'react-router-dom';
import { theme } from './theme/theme';

export interface AppProps {
  /** The browser router in the app; a memory router in tests. */
  router: DataRouter;
}

/** Providers shared by every page: theme, baseline CSS, toasts, and the router. */
export function App({ router }: AppProps) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <SnackbarProvider
        maxSnack={3}
        autoHideDuration={4000}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <RouterProvider router={router} />
      </SnackbarProvider>
    </ThemeProvider>
  );
}
