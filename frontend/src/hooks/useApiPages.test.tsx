import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { renderAtDashboard } from '../test/render';
import { useApiPages } from './useApiPages';

interface Page {
  items: string[];
  nextCursor: string | null;
}
type LoadPage = (cursor: string | null, signal: AbortSignal) => Promise<Page>;

const append = (shown: Page, next: Page): Page => ({
  items: [...shown.items, ...next.items],
  nextCursor: next.nextCursor,
});

function Probe({ loadPage }: { loadPage: LoadPage }) {
  const list = useApiPages(loadPage, append);
  return (
    <>
      <p>{list.status === 'ready' ? `items: ${list.data.items.join(',')}` : list.status}</p>
      {list.hasMore && <button onClick={list.showMore}>Show more</button>}
      {list.loadingMore && <p>loading more</p>}
      {list.moreError !== null && <p>more failed</p>}
      <button onClick={list.reload}>Reload</button>
    </>
  );
}

const pages: Record<string, Page> = {
  first: { items: ['a', 'b'], nextCursor: 'c2' },
  c2: { items: ['c'], nextCursor: 'c3' },
  c3: { items: ['d'], nextCursor: null },
};
const fromPages = vi.fn<LoadPage>((cursor) => Promise.resolve(pages[cursor ?? 'first']));

describe('useApiPages', () => {
  it('shows the first page, appends the next on "Show more", and offers no more after the last', async () => {
    const user = userEvent.setup();
    renderAtDashboard(<Probe loadPage={fromPages} />);
    expect(await screen.findByText('items: a,b')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('items: a,b,c')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('items: a,b,c,d')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
    expect(fromPages.mock.calls.map(([cursor]) => cursor)).toEqual([null, 'c2', 'c3']);
  });

  it('shows its own loading and error while the list stays, and asks again from the same cursor', async () => {
    const user = userEvent.setup();
    let failNext: (error: unknown) => void = () => undefined;
    const loadPage = vi.fn<LoadPage>((cursor) =>
      cursor === null
        ? Promise.resolve(pages.first)
        : new Promise((_, reject) => {
            failNext = reject;
          }),
    );
    renderAtDashboard(<Probe loadPage={loadPage} />);
    await screen.findByText('items: a,b');
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(screen.getByText('loading more')).toBeInTheDocument();
    failNext(new ApiError(500, 'INTERNAL_ERROR', 'Down.', true));
    expect(await screen.findByText('more failed')).toBeInTheDocument();
    expect(screen.getByText('items: a,b')).toBeInTheDocument();
    expect(screen.queryByText('loading more')).not.toBeInTheDocument();
    loadPage.mockImplementation((cursor) => Promise.resolve(pages[cursor ?? 'first']));
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('items: a,b,c')).toBeInTheDocument();
    expect(screen.queryByText('more failed')).not.toBeInTheDocument();
    expect(loadPage.mock.calls.map(([cursor]) => cursor)).toEqual([null, 'c2', 'c2']);
  });

  it('aborts "Show more" when the list unmounts', async () => {
    const user = userEvent.setup();
    const loadPage = vi.fn<LoadPage>((cursor) =>
      cursor === null ? Promise.resolve(pages.first) : new Promise(() => undefined),
    );
    const { unmount } = renderAtDashboard(<Probe loadPage={loadPage} />);
    await screen.findByText('items: a,b');
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    const signal = loadPage.mock.calls[1]?.[1];
    expect(signal?.aborted).toBe(false);
    unmount();
    expect(signal?.aborted).toBe(true);
  });

  it('drops a "Show more" answer that arrives after a reload', async () => {
    const user = userEvent.setup();
    let answerMore: (page: Page) => void = () => undefined;
    const loadPage = vi.fn<LoadPage>((cursor) =>
      cursor === null
        ? Promise.resolve(pages.first)
        : new Promise((resolve) => {
            answerMore = resolve;
          }),
    );
    renderAtDashboard(<Probe loadPage={loadPage} />);
    await screen.findByText('items: a,b');
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    const signal = loadPage.mock.calls[1]?.[1];
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(signal?.aborted).toBe(true);
    expect(await screen.findByText('items: a,b')).toBeInTheDocument();
    answerMore(pages.c2);
    await Promise.resolve();
    expect(screen.getByText('items: a,b')).toBeInTheDocument();
    expect(screen.queryByText('loading more')).not.toBeInTheDocument();
  });

  it('a "Show more" refused for billing sends the owner where the dashboard gate would', async () => {
    const user = userEvent.setup();
    const loadPage = vi.fn<LoadPage>((cursor) =>
      cursor === null
        ? Promise.resolve(pages.first)
        : Promise.reject(new ApiError(403, 'PAYMENT_FAILED', 'Pay.', true)),
    );
    renderAtDashboard(<Probe loadPage={loadPage} />);
    await screen.findByText('items: a,b');
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByRole('heading', { name: 'Billing issue page' })).toBeInTheDocument();
  });
});
