import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router-dom';
import { App } from '../App';
import { routes } from '../routes';

/** Renders the whole app (theme, toasts, router) at `path`, as a visitor opening that URL. */
export function renderRoute(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  return { router, ...render(<App router={router} />) };
}
