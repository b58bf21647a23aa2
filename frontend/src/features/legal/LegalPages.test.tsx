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
    // What a bot stores about visitors, and the retention owners choose.
    expect(screen.getByRole('heading', { level: 2, name: /What a bot stores about its visitors/ })).toBeInTheDocument();
    const stored = screen.getByText(/we store the messages of the conversation/);
    expect(stored).toHaveTextContent(/the address of the page the chat happened on/);
    expect(stored).toHaveTextContent(/an anonymous visitor identifier/);
    expect(stored).toHaveTextContent(/never store a visitor’s whole IP address/);
    expect(stored).toHaveTextContent(/one-way keyed code of their network/);
    expect(
      screen.getByText(/30, 90 or 365 days after the conversation’s last message, or forever; 365 days unless/),
    ).toBeInTheDocument();
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
