import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiErrorCode } from '../api/client';
import { renderAtDashboard } from '../test/render';
import { useApiResource } from './useApiResource';

function Probe({ load }: { load: (signal: AbortSignal) => Promise<string> }) {
  const resource = useApiResource(load);
  return (
    <>
      <p>{resource.status === 'ready' ? `data: ${resource.data}` : resource.status}</p>
      <button onClick={resource.reload}>Reload</button>
      <button onClick={() => resource.update((data) => `${data}!`)}>Update</button>
    </>
  );
}

const refusal = (status: number, code: ApiErrorCode) => Promise.reject(new ApiError(status, code, 'No.', true));

describe('useApiResource', () => {
  it('shows loading, then the data; update changes it in place', async () => {
    const user = userEvent.setup();
    renderAtDashboard(<Probe load={() => Promise.resolve('bots')} />);
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(await screen.findByText('data: bots')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(screen.getByText('data: bots!')).toBeInTheDocument();
  });

  it('answers error for a failure that is not about the session or billing, and reload asks again', async () => {
    const user = userEvent.setup();
    const load = vi.fn<() => Promise<string>>(() => refusal(500, 'INTERNAL_ERROR'));
    renderAtDashboard(<Probe load={load} />);
    expect(await screen.findByText('error')).toBeInTheDocument();
    load.mockImplementation(() => Promise.resolve('again'));
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(await screen.findByText('data: again')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it.each([
    [401, 'UNAUTHENTICATED', 'Login page'],
    [403, 'SETUP_REQUIRED', 'Complete setup page'],
    [403, 'SUBSCRIPTION_PENDING', 'Setup success page'],
    [403, 'PAYMENT_FAILED', 'Billing issue page'],
  ])('a %i %s sends the owner where the dashboard gate would', async (status, code, page) => {
    const { router } = renderAtDashboard(<Probe load={() => refusal(status, code as ApiErrorCode)} />);
    expect(await screen.findByRole('heading', { name: page })).toBeInTheDocument();
    expect(screen.queryByText('error')).not.toBeInTheDocument();
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it("aborts the request's signal when the owner leaves before it answers", () => {
    const load = vi.fn<(signal: AbortSignal) => Promise<string>>(() => new Promise(() => undefined));
    const { unmount } = renderAtDashboard(<Probe load={load} />);
    const signal = load.mock.calls[0]?.[0];
    expect(signal?.aborted).toBe(false);
    unmount();
    expect(signal?.aborted).toBe(true);
  });

  it('a 403 with another code is an error, not a redirect', async () => {
    renderAtDashboard(<Probe load={() => refusal(403, 'FORBIDDEN')} />);
    expect(await screen.findByText('error')).toBeInTheDocument();
  });
});
