import { StrictMode } from 'react';
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
if (container.hasChildNodes()) hydrateRoot(container, app);
else createRoot(container).render(app);
