import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoute } from './test/render';

/*
 * Each page is replaced by a stub naming itself, so this file tests the wiring (which path shows
 * which page, lazily loaded or not) independently of what the pages do; the pages have their own tests.
 */
function stubPage(name: string) {
  return { [name]: () => <h1>page:{name}</h1> };
}
vi.mock('./features/landing/LandingPage', () => stubPage('LandingPage'));
vi.mock('./features/auth/SignupPage', () => stubPage('SignupPage'));
vi.mock('./features/auth/LoginPage', () => stubPage('LoginPage'));
vi.mock('./features/auth/ForgotPasswordPage', () => stubPage('ForgotPasswordPage'));
vi.mock('./features/auth/ResetPasswordPage', () => stubPage('ResetPasswordPage'));
vi.mock('./features/auth/VerifyEmailPage', () => stubPage('VerifyEmailPage'));
vi.mock('./features/billing/CompleteSetupPage', () => stubPage('CompleteSetupPage'));
vi.mock('./features/billing/SetupSuccessPage', () => stubPage('SetupSuccessPage'));
vi.mock('./features/billing/BillingIssuePage', () => stubPage('BillingIssuePage'));
vi.mock('./features/dashboard/DashboardPage', () => stubPage('DashboardPage'));
vi.mock('./features/widget/WidgetPage', () => stubPage('WidgetPage'));
vi.mock('./features/legal/PrivacyPolicyPage', () => stubPage('PrivacyPolicyPage'));
vi.mock('./features/legal/TermsOfServicePage', () => stubPage('TermsOfServicePage'));

describe('routes', () => {
  it.each([
    ['/', 'LandingPage'],
    ['/signup', 'SignupPage'],
    ['/login', 'LoginPage'],
    ['/signin', 'LoginPage'],
    ['/forgot-password', 'ForgotPasswordPage'],
    ['/reset-password/abc123', 'ResetPasswordPage'],
    ['/verify-email/abc123', 'VerifyEmailPage'],
    ['/complete-setup', 'CompleteSetupPage'],
    ['/setup-success', 'SetupSuccessPage'],
    ['/billing-issue', 'BillingIssuePage'],
    ['/dashboard', 'DashboardPage'],
    ['/dashboard/conversations?botId=1', 'DashboardPage'],
    ['/widget?botId=1', 'WidgetPage'],
    ['/privacy-policy', 'PrivacyPolicyPage'],
    ['/terms-of-service', 'TermsOfServicePage'],
  ])('shows %s with %s', async (path, page) => {
    renderRoute(path);
    expect(await screen.findByRole('heading', { level: 1, name: `page:${page}` })).toBeInTheDocument();
  });

  it('answers an unknown path with a friendly not-found page linking home', async () => {
    renderRoute('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });
});
