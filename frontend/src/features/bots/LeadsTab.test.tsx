import { LEAD_CAPTURE_DEFAULTS } from '@botsmith/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { makeBot } from '../../test/fixtures';
import { renderAtDashboard } from '../../test/render';
import { LeadsTab, notifyEmailsError, parseNotifyEmails } from './LeadsTab';

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

const api = vi.hoisted(() => ({
  botsApi: { update: vi.fn() },
  mailApi: { usage: vi.fn(), notifyEmails: vi.fn(), resend: vi.fn() },
}));
vi.mock('../../api', () => api);

function renderTab(bot = makeBot()) {
  const onSaved = vi.fn();
  renderAtDashboard(<LeadsTab bot={bot} ownerEmail="owner@example.com" onSaved={onSaved} />);
  return { onSaved };
}

const NO_LIMIT = { sentToday: 0, dailyLimit: 500, limitReached: false };

describe('LeadsTab', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    api.mailApi.usage.mockResolvedValue(NO_LIMIT);
    api.mailApi.notifyEmails.mockResolvedValue({ addresses: [] });
  });

  it("shows a new bot's setting: on, e-mail, at the budget and on request, the owner's address as placeholder", () => {
    renderTab();
    expect(screen.getByRole('switch', { name: 'Collect leads' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'E-mail' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Name' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /^At the budget/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'When the visitor asks for a person' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'When an answer is flagged unanswered' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Before the first message' })).not.toBeChecked();
    expect(screen.getByLabelText('Send leads to')).toHaveAttribute('placeholder', 'owner@example.com');
    expect(screen.getByLabelText('Thank-you text')).toHaveAttribute(
      'placeholder',
      "Thanks! We'll get back to you soon.",
    );
    // Says where visitors meet the form.
    expect(screen.getByText(/says “Leave a message” and opens the form/)).toBeInTheDocument();
  });

  it('saves the whole setting, lists in order, and reports success', async () => {
    const saved = makeBot({
      leadCapture: {
        enabled: true,
        fields: ['name', 'email', 'phone'],
        offerWhen: ['cap', 'request', 'start'],
        notifyEmails: ['sales@example.net', 'boss@example.net'],
        thankYouText: 'Merci!',
      },
    });
    api.botsApi.update.mockResolvedValue({ bot: saved });
    const { onSaved } = renderTab();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Phone' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Name' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Before the first message' }));
    await userEvent.type(screen.getByLabelText('Send leads to'), 'sales@example.net, boss@example.net');
    await userEvent.type(screen.getByLabelText('Thank-you text'), ' Merci! ');
    await userEvent.click(screen.getByRole('button', { name: 'Save Leads' }));

    await waitFor(() =>
      expect(api.botsApi.update).toHaveBeenCalledWith(7, {
        leadCapture: {
          enabled: true,
          fields: ['name', 'email', 'phone'],
          offerWhen: ['cap', 'request', 'start'],
          notifyEmails: ['sales@example.net', 'boss@example.net'],
          thankYouText: 'Merci!',
        },
      }),
    );
    expect(onSaved).toHaveBeenCalledWith(saved);
    expect(await screen.findByText('Lead settings saved!')).toBeInTheDocument();
  });

  it('turns lead capture off', async () => {
    api.botsApi.update.mockResolvedValue({
      bot: makeBot({ leadCapture: { ...LEAD_CAPTURE_DEFAULTS, enabled: false } }),
    });
    renderTab();
    await userEvent.click(screen.getByRole('switch', { name: 'Collect leads' }));
    expect(screen.getByRole('checkbox', { name: 'E-mail' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Save Leads' }));
    await waitFor(() =>
      expect(api.botsApi.update).toHaveBeenCalledWith(7, { leadCapture: { ...LEAD_CAPTURE_DEFAULTS, enabled: false } }),
    );
  });

  it('requires the e-mail or the phone, and valid addresses, before saving', async () => {
    renderTab();
    await userEvent.click(screen.getByRole('checkbox', { name: 'E-mail' }));
    expect(screen.getByText('Ask for the e-mail or the phone, so you can reply.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Leads' })).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Phone' }));
    await userEvent.type(screen.getByLabelText('Send leads to'), 'sales@example.net, nope');
    expect(screen.getByText('nope is not a valid e-mail address.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Leads' })).toBeDisabled();
    expect(api.botsApi.update).not.toHaveBeenCalled();
  });

  it("shows the server's reason when saving fails", async () => {
    api.botsApi.update.mockRejectedValue(
      new ApiError(400, 'VALIDATION_FAILED', 'Invalid leadCapture.notifyEmails: at most 5 addresses.', true),
    );
    renderTab();
    await userEvent.click(screen.getByRole('button', { name: 'Save Leads' }));
    expect(await screen.findByText('Invalid leadCapture.notifyEmails: at most 5 addresses.')).toBeInTheDocument();
    expect(await screen.findByText('Error saving lead settings.')).toBeInTheDocument();
  });
});

describe('LeadsTab: mail consent', () => {
  const listed = makeBot({
    leadCapture: {
      ...LEAD_CAPTURE_DEFAULTS,
      notifyEmails: ['sales@example.net', 'boss@example.net', 'owner@example.com'],
    },
  });

  beforeEach(() => {
    vi.resetAllMocks();
    api.mailApi.usage.mockResolvedValue(NO_LIMIT);
    api.mailApi.notifyEmails.mockResolvedValue({
      addresses: [
        { email: 'sales@example.net', state: 'confirmed', confirmationSentAt: '2026-11-27T01:00:00.000Z' },
        { email: 'boss@example.net', state: 'pending', confirmationSentAt: '2026-11-27T01:00:00.000Z' },
        { email: 'owner@example.com', state: 'account', confirmationSentAt: null },
      ],
    });
  });

  it('shows each address as confirmed, waiting for confirmation or the account address; only pending ones resend', async () => {
    renderTab(listed);
    const list = await screen.findByRole('list', { name: 'Lead addresses' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'sales@example.netConfirmed',
      'boss@example.netWaiting for confirmationResend',
      'owner@example.comYour account address',
    ]);
    expect(api.mailApi.notifyEmails).toHaveBeenCalledWith(7);
    expect(within(list).getAllByRole('button')).toHaveLength(1);
    expect(screen.queryByText(/daily e-mail limit/)).not.toBeInTheDocument();
  });

  it('resends a confirmation and shows the states the server answers', async () => {
    api.mailApi.resend.mockResolvedValue({ addresses: [] });
    renderTab(listed);
    await userEvent.click(await screen.findByRole('button', { name: 'Resend the confirmation to boss@example.net' }));
    expect(api.mailApi.resend).toHaveBeenCalledWith(7, 'boss@example.net');
    expect(await screen.findByText('Confirmation sent to boss@example.net.')).toBeInTheDocument();
    // The answer replaced the list (here: empty), so the states shown are the server's.
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Lead addresses' })).not.toBeInTheDocument());
  });

  it('shows the server sentence when a resend is refused', async () => {
    api.mailApi.resend.mockRejectedValue(
      new ApiError(
        429,
        'CONFIRMATION_RECENTLY_SENT',
        'A confirmation was sent to this address less than 10 minutes ago. Please wait before sending another.',
        true,
      ),
    );
    renderTab(listed);
    await userEvent.click(await screen.findByRole('button', { name: 'Resend the confirmation to boss@example.net' }));
    expect(
      await screen.findByText(
        'A confirmation was sent to this address less than 10 minutes ago. Please wait before sending another.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Lead addresses' })).toBeInTheDocument();
  });

  it('reads the states again after a save', async () => {
    api.botsApi.update.mockResolvedValue({ bot: listed });
    renderTab(listed);
    await screen.findByRole('list', { name: 'Lead addresses' });
    await userEvent.click(screen.getByRole('button', { name: 'Save Leads' }));
    await waitFor(() => expect(api.mailApi.notifyEmails).toHaveBeenCalledTimes(2));
  });

  it("says when the account's daily e-mail limit is reached", async () => {
    api.mailApi.usage.mockResolvedValue({ sentToday: 500, dailyLimit: 500, limitReached: true });
    renderTab(listed);
    expect(
      await screen.findByText(
        'Your account reached its daily e-mail limit (500 e-mails). New leads are kept here but not e-mailed until tomorrow (UTC).',
      ),
    ).toBeInTheDocument();
  });
});

describe('notify addresses', () => {
  it('are read from a comma, semicolon or space separated list', () => {
    expect(parseNotifyEmails(' a@example.org,b@example.org; c@example.org  ')).toEqual([
      'a@example.org',
      'b@example.org',
      'c@example.org',
    ]);
    expect(parseNotifyEmails('  ')).toEqual([]);
  });

  it('are at most five valid addresses', () => {
    expect(notifyEmailsError([])).toBeNull();
    expect(notifyEmailsError(['a@example.org'])).toBeNull();
    expect(notifyEmailsError(['a@example'])).toBe('a@example is not a valid e-mail address.');
    expect(notifyEmailsError(['1', '2', '3', '4', '5', '6'].map((n) => `${n}@example.org`))).toBe(
      'At most 5 addresses.',
    );
  });
});
