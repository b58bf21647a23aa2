import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { renderAtDashboard } from '../test/render';
import { useApiResource } from './useApiResource';

const POLL_MS = 1000;

function Probe({
  load,
  pollMs = POLL_MS,
}: {
  load: (signal: AbortSignal) => Promise<string>;
  pollMs?: number | null | ((data: string) => number | null);
}) {
  const resource = useApiResource(load, { pollMs });
  return (
    <>
      <p>{resource.status === 'ready' ? `data: ${resource.data}` : resource.status}</p>
      <button onClick={() => resource.update((data) => `${data}!`)}>Update</button>
    </>
  );
}

type Load = (signal: AbortSignal) => Promise<string>;

/** A load whose answers the test hands out one by one. */
function answers() {
  const pending: { resolve: (value: string) => void; reject: (error: unknown) => void }[] = [];
  const load = vi.fn<Load>(
    () =>
      new Promise<string>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
  );
  const answer = async (value: string | Error) => {
    const next = pending.shift();
    if (!next) throw new Error('no request is waiting');
    await act(async () => {
      if (value instanceof Error) next.reject(value);
      else next.resolve(value);
      await Promise.resolve();
    });
  };
  return { load, answer };
}

const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

let hidden = false;

describe('useApiResource polling', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    hidden = false;
    vi.spyOn(document, 'hidden', 'get').mockImplementation(() => hidden);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('reads again every pollMs after the last answer, showing the new data without a loading state', async () => {
    const { load, answer } = answers();
    renderAtDashboard(<Probe load={load} />);
    await answer('one');
    expect(screen.getByText('data: one')).toBeInTheDocument();
    await tick(POLL_MS - 1);
    expect(load).toHaveBeenCalledTimes(1);
    await tick(1);
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.getByText('data: one')).toBeInTheDocument();
    await answer('two');
    expect(screen.getByText('data: two')).toBeInTheDocument();
    await tick(POLL_MS);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('never starts a read while the last one is still out', async () => {
    const { load, answer } = answers();
    renderAtDashboard(<Probe load={load} />);
    await answer('one');
    await tick(POLL_MS);
    expect(load).toHaveBeenCalledTimes(2);
    await tick(POLL_MS * 10);
    expect(load).toHaveBeenCalledTimes(2);
    await answer('two');
    await tick(POLL_MS);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('does not poll without pollMs', async () => {
    const { load, answer } = answers();
    renderAtDashboard(<Probe load={load} pollMs={null} />);
    await answer('one');
    await tick(POLL_MS * 10);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('with a function, polls only while the data shown asks for it', async () => {
    const { load, answer } = answers();
    renderAtDashboard(<Probe load={load} pollMs={(data) => (data.startsWith('busy') ? POLL_MS : null)} />);
    await answer('busy 1');
    await tick(POLL_MS);
    expect(load).toHaveBeenCalledTimes(2);
    await answer('done');
    expect(screen.getByText('data: done')).toBeInTheDocument();
    await tick(POLL_MS * 10);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('pauses while the tab is hidden and reads as soon as it shows again', async () => {
    const { load, answer } = answers();
    renderAtDashboard(<Probe load={load} />);
    await answer('one');
    hidden = true;
    await tick(POLL_MS * 5);
    expect(load).toHaveBeenCalledTimes(1);
    hidden = false;
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(load).toHaveBeenCalledTimes(2);
    await answer('two');
    expect(screen.getByText('data: two')).toBeInTheDocument();
  });

  it('keeps the last data when a poll fails, and tries again at the next tick', async () => {
    const { load, answer } = answers();
    renderAtDashboard(<Probe load={load} />);
    await answer('one');
    await tick(POLL_MS);
    await answer(new ApiError(500, 'INTERNAL_ERROR', 'Down.', true));
    expect(screen.getByText('data: one')).toBeInTheDocument();
    await tick(POLL_MS);
    expect(load).toHaveBeenCalledTimes(3);
    await answer('three');
    expect(screen.getByText('data: three')).toBeInTheDocument();
  });

  it('a poll refused for the session sends the owner to log in', async () => {
    const { load, answer } = answers();
    const { router } = renderAtDashboard(<Probe load={load} />);
    await answer('one');
    await tick(POLL_MS);
    await answer(new ApiError(401, 'UNAUTHORIZED', 'Log in.', true));
    expect(router.state.location.pathname).toBe('/login');
  });

  it("drops a poll's answer that was in flight while the data was changed here", async () => {
    const { load, answer } = answers();
    renderAtDashboard(<Probe load={load} />);
    await answer('one');
    await tick(POLL_MS);
    act(() => screen.getByRole('button', { name: 'Update' }).click());
    expect(screen.getByText('data: one!')).toBeInTheDocument();
    await answer('older');
    expect(screen.getByText('data: one!')).toBeInTheDocument();
    await tick(POLL_MS);
    await answer('newer');
    expect(screen.getByText('data: newer')).toBeInTheDocument();
  });

  it('aborts the poll in flight on unmount and reads no more', async () => {
    const { load, answer } = answers();
    const { unmount } = renderAtDashboard(<Probe load={load} />);
    await answer('one');
    await tick(POLL_MS);
    const signal = load.mock.calls[1]?.[0];
    expect(signal?.aborted).toBe(false);
    unmount();
    expect(signal?.aborted).toBe(true);
    await tick(POLL_MS * 5);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

function RefreshProbe({ load }: { load: (signal: AbortSignal) => Promise<string> }) {
  const resource = useApiResource(load);
  return (
    <>
      <p>{resource.status === 'ready' ? `data: ${resource.data}` : resource.status}</p>
      <button onClick={resource.refresh}>Refresh</button>
    </>
  );
}

describe('useApiResource refresh', () => {
  it('reads again keeping the data shown, and a failed refresh keeps it', async () => {
    const { load, answer } = answers();
    renderAtDashboard(<RefreshProbe load={load} />);
    await answer('one');
    act(() => screen.getByRole('button', { name: 'Refresh' }).click());
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.getByText('data: one')).toBeInTheDocument();
    await answer(new ApiError(500, 'INTERNAL_ERROR', 'Down.', true));
    expect(screen.getByText('data: one')).toBeInTheDocument();
    act(() => screen.getByRole('button', { name: 'Refresh' }).click());
    await answer('two');
    expect(screen.getByText('data: two')).toBeInTheDocument();
  });

  it('a newer refresh aborts the one in flight, and unmounting aborts it too', async () => {
    const { load, answer } = answers();
    const { unmount } = renderAtDashboard(<RefreshProbe load={load} />);
    await answer('one');
    act(() => screen.getByRole('button', { name: 'Refresh' }).click());
    const first = load.mock.calls[1]?.[0];
    act(() => screen.getByRole('button', { name: 'Refresh' }).click());
    expect(first?.aborted).toBe(true);
    const second = load.mock.calls[2]?.[0];
    expect(second?.aborted).toBe(false);
    unmount();
    expect(second?.aborted).toBe(true);
  });
});
