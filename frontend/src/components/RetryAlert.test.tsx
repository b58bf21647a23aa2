import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RetryAlert } from './RetryAlert';

describe('RetryAlert', () => {
  it('says what failed to load and loads it again on Retry', async () => {
    const onRetry = vi.fn();
    render(<RetryAlert onRetry={onRetry}>Error fetching bots.</RetryAlert>);
    expect(screen.getByRole('alert')).toHaveTextContent('Error fetching bots.');
    expect(onRetry).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
