import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../test/render';

describe('legal pages', () => {
  it('shows the privacy policy with the cookie, retention and contact terms', async () => {
    renderRoute('/privacy-policy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
    for (const heading of ['Cookies and local storage', 'How long we keep it', 'Your rights']) {
      expect(screen.getByRole('heading', { level: 2, name: new RegExp(heading) })).toBeInTheDocument();
    }
    expect(screen.getByText(/one cookie: a session cookie/)).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'support@botsmith.dev' })[0]).toHaveAttribute(
      'href',
      'mailto:support@botsmith.dev',
    );
  });

  it('shows the terms with the per-message prices, free credits and billing on the 3rd', async () => {
    renderRoute('/terms-of-service');
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeInTheDocument();
    expect(
      screen.getByText(/3¢ for GPT-3.5 Turbo, 4¢ for GPT-4 Turbo and GPT-4o Mini, and 5¢ for GPT-4 Omni/),
    ).toBeInTheDocument();
    expect(screen.getByText(/\$5 in free credits/)).toBeInTheDocument();
    expect(screen.getByText(/start on the 3rd of each month/)).toBeInTheDocument();
  });
});
