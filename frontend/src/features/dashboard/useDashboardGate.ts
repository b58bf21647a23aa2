import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { userApi } from '../../api';
import { gateDestination } from '../../api/billingGate';
import type { CurrentUser } from '../../api/types';
import { useApiResource } from '../../hooks/useApiResource';

export type DashboardGate =
  { status: 'checking' } | { status: 'ready'; user: CurrentUser } | { status: 'error'; retry: () => void };

const loadCurrentUser = () => userApi.me();

/**
 * Fetches the current owner and applies the dashboard gate: 401 -> /login, no customer ->
 * /complete-setup, no subscription item -> /setup-success, hasPaid false -> /billing-issue.
 */
export function useDashboardGate(): DashboardGate {
  const navigate = useNavigate();
  const me = useApiResource(loadCurrentUser);
  const destination = me.status === 'ready' ? gateDestination(me.data) : null;

  useEffect(() => {
    if (destination) void navigate(destination, { replace: true });
  }, [destination, navigate]);

  if (me.status === 'ready' && !destination) return { status: 'ready', user: me.data };
  if (me.status === 'error') return { status: 'error', retry: me.reload };
  return { status: 'checking' };
}
