import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from './test/renderRoute';

describe('routes', () => {
  it.each([
    ['/', 'Build Smarter Bots with'],
    ['/signup', 'Sign Up'],
    ['/login', 'Log In'],
    ['/signin', 'Log In'],
    ['/forgot-password', 'Forgot Password'],
    ['/reset-password/abc123', 'Reset Password'],
    ['/verify-email/abc123', 'Verifying...'],
    ['/complete-setup', 'Almost There'],
    ['/setup-success', 'Finishing Setup'],
    ['/billing-issue', 'Fix Your Billing Info'],
    ['/dashboard', 'Dashboard'],
    ['/widget?botId=1', 'Chat Widget'],
    ['/privacy-policy', 'Privacy Policy'],
    ['/terms-of-service', 'Terms of Service'],
  ])('renders the page of %s', async (path, heading) => {
    renderRoute(path);
    expect(
      await screen.findByRole('heading', { level: 1, name: new RegExp(`^${escape(heading)}`) }),
    ).toBeInTheDocument();
  });

  it('answers an unknown path with a friendly not-found page linking home', async () => {
    renderRoute('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
