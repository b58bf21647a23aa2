import { ThemeProvider } from '@mui/material/styles';
import { render } from '@testing-library/react';
import { SnackbarProvider } from 'notistack';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { Bot } from '../../api/types';
import { theme } from '../../theme/theme';

const DESTINATIONS = [
  ['/login', 'Login page'],
  ['/complete-setup', 'Complete setup page'],
  ['/setup-success', 'Setup success page'],
  ['/billing-issue', 'Billing issue page'],
  ['/', 'Home page'],
] as const;

/** Test helper: `element` at /dashboard, with theme, toasts and stand-ins for where it may send the owner. */
export function renderAtDashboard(element: ReactElement) {
  const router = createMemoryRouter(
    [{ path: '/dashboard', element }, ...DESTINATIONS.map(([path, text]) => ({ path, element: <h1>{text}</h1> }))],
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

const solid = (hex: string) => `linear-gradient(to right, ${hex}, ${hex})`;

/** A bot as GET /api/bots/:id answers, with the brief's defaults. */
export function makeBot(overrides: Partial<Bot> = {}): Bot {
  const bot: Bot = {
    id: 7,
    name: 'Support Bot',
    apiKey: 'k'.repeat(43),
    prompt: '',
    customGreeting: 'Hi! How can I help you today?',
    model: 'gpt-3.5-turbo',
    categoryId: null,
    allowedDomain: '',
    document: null,
    bubbleIcon: '',
    bubbleColor: solid('#2ecc71'),
    bubbleTextColor: solid('#ffffff'),
    bubbleBorderRadius: '50%',
    chatWindowBorderRadius: '10px',
    bannerColor: solid('#2ecc71'),
    bannerTextColor: solid('#ffffff'),
    bannerDisclaimer: '',
    placeholderText: 'Type your message here...',
    placeholderTextColor: solid('#000000'),
    sendButtonColor: solid('#2ecc71'),
    sendButtonColor1: solid('#2ecc71'),
    sendArrowColor: solid('#ffffff'),
    widgetBubbleColor: solid('#ff9800'),
    assistantBubbleColor: solid('#f1f0f0'),
    assistantBubbleTextColor: solid('#000000'),
    widgetBackgroundColor: solid('#ffffff'),
    animation: 'none',
    widgetPosition: 'right',
    maxTokens: 300,
    temperature: 0.3,
    usageLimitDollars: 0,
  };
  return { ...bot, ...overrides };
}

/** jsdom has no matchMedia: answer as a desktop (min-width queries match) or a phone (none match). */
export function stubScreen(kind: 'desktop' | 'phone'): void {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) => ({
      matches: kind === 'desktop' ? /min-width/.test(query) : /max-width/.test(query),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}
