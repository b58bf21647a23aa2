import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HydrateWhenNear } from './HydrateWhenNear';

function Counter() {
  const [count, setCount] = useState(0);
  return <button onClick={() => setCount((n) => n + 1)}>clicked {count}</button>;
}

type Callback = (entries: Array<Partial<IntersectionObserverEntry>>) => void;

/** An IntersectionObserver the test drives: `near()` tells every observer its element is near. */
function stubIntersectionObserver() {
  const callbacks: Callback[] = [];
  const observed: Element[] = [];
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(callback: Callback) {
        callbacks.push(callback);
      }
      observe(element: Element) {
        observed.push(element);
      }
      disconnect() {}
      unobserve() {}
    },
  );
  return {
    observed,
    near: () => callbacks.forEach((callback) => callback([{ isIntersecting: true }])),
  };
}

const page = (name: string) => (
  <main>
    <h1>Hero</h1>
    <HydrateWhenNear name={name}>
      <Counter />
    </HydrateWhenNear>
  </main>
);

describe('HydrateWhenNear', () => {
  let root: Root | undefined;

  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  it('renders its part at once when the page is rendered on the client', () => {
    const observer = stubIntersectionObserver();
    render(page('client'));
    expect(screen.getByRole('button', { name: 'clicked 0' })).toBeInTheDocument();
    expect(observer.observed).toEqual([]);
  });

  it('keeps prerendered markup as it is, not interactive, until the part comes near the screen', async () => {
    const observer = stubIntersectionObserver();
    const container = document.createElement('div');
    container.innerHTML = renderToString(page('prerendered'));
    document.body.append(container);
    const button = screen.getByRole('button', { name: 'clicked 0' });

    await act(async () => {
      root = hydrateRoot(container, page('prerendered'));
    });
    // The server's button is shown and kept (same node), but React has not attached to it yet.
    expect(observer.observed).toEqual([container.querySelector('[data-hydrate="prerendered"]')]);
    act(() => button.click());
    expect(button).toHaveTextContent('clicked 0');

    await act(async () => observer.near());
    act(() => button.click());
    expect(screen.getByRole('button', { name: 'clicked 1' })).toBe(button);
  });
});
