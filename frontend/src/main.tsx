import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { App } from './App';
import { routes } from './routes';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

// `/` arrives prerendered (scripts/prerender.mjs): adopt that markup instead of rendering it again.
const prerendered = container.hasChildNodes();

// The prerendered page starts its app at the visitor's first interaction, often a scroll: hydration
// data (none to carry: no route has a loader) tells the router the page was rendered before it, so
// its scroll restoration leaves the visitor where they are instead of taking them back to the top.
const router = createBrowserRouter(routes, prerendered ? { hydrationData: { loaderData: {} } } : undefined);
const app = (
  <StrictMode>
    <App router={router} />
  </StrictMode>
);

// As a transition, hydration works in short slices between which the phone stays responsive (the
// page is already visible; a click on a part not yet hydrated hydrates that part at once).
if (prerendered) startTransition(() => void hydrateRoot(container, app));
else createRoot(container).render(app);
