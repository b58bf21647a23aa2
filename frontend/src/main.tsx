import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { App } from './App';
import { routes } from './routes';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const app = (
  <StrictMode>
    <App router={createBrowserRouter(routes)} />
  </StrictMode>
);

// `/` arrives prerendered (scripts/prerender.mjs): adopt that markup instead of rendering it again.
// As a transition, hydration works in short slices between which the phone stays responsive (the
// page is already visible; a click on a part not yet hydrated hydrates that part at once).
if (container.hasChildNodes()) startTransition(() => void hydrateRoot(container, app));
else createRoot(container).render(app);
