import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { userApi } from '../../api';
import { ApiError } from '../../api/client';
import type { CurrentUser } from '../../api/types';
import { gateDestination } from './dashboardRouting';

export type DashboardGate =
  { status: 'checking' } | { status: 'ready'; user: CurrentUser } | { status: 'error'; retry: () => void };

/**
 * Fetches the current owner and applies the brief's dashboard gate: 401 -> /login, no customer ->
 * /complete-setup, no subscription item -> /setup-success, hasPaid false -> /billing-issue.
 */
export function useDashboardGate(): DashboardGate {
  const navigate = useNavigate();
  const [state, setState] = useState<{ status: 'checking' | 'error' } | { status: 'ready'; user: CurrentUser }>({
    status: 'checking',
  });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let active = true;
    userApi.me().then(
      (user) => {
        if (!active) return;
        const destination = gateDestination(user);
        if (destination) void navigate(destination, { replace: true });
        else setState({ status: 'ready', user });
      },
      (error: unknown) => {
        if (!active) return;
        if (error instanceof ApiError && error.status === 401) void navigate('/login', { replace: true });
        else setState({ status: 'error' });
      },
    );
    return () => {
      active = false;
    };
  }, [navigate, attempt]);

  const retry = useCallback(() => {
    setState({ status: 'checking' });
    setAttempt((n) => n + 1);
  }, []);

  if (state.status === 'ready') return state;
  if (state.status === 'error') return { status: 'error', retry };
  return { status: 'checking' };
}
