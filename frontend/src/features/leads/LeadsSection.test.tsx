import type { LeadSummary } from '@botsmith/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeBot } from '../../test/fixtures';
import { renderAtDashboard } from '../../test/render';
import { stubScreen } from '../../test/stubs';
import { LeadsSection } from './LeadsSection';

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

const api = vi.hoisted(() => ({
  leadsApi: { list: vi.fn(), remove: vi.fn(), exportFile: vi.fn() },
  mailApi: { usage: vi.fn() },
}));
vi.mock('../../api', () => api);

const BOTS = [makeBot({ id: 1, name: 'Support Bot' }), makeBot({ id: 2, name: 'Sales Bot' })];

function lead(over: Partial<LeadSummary> = {}): LeadSummary {
  return {
    id: 31,
    botId: 1,
    botName: 'Support Bot',
    name: 'Ann Lee',
    email: 'ann@example.org',
    phone: null,
    message: 'Please call me back',
    conversationId: 11,
    createdAt: '2026-11-20T10:00:00.000Z',
    ...over,
  };
}

function renderSection(path = '/dashboard/leads') {
  return renderAtDashboard(<LeadsSection bots={BOTS} />, path);
}

describe('LeadsSection', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    stubScreen('desktop');
    api.mailApi.usage.mockResolvedValue({ sentToday: 3, dailyLimit: 500, limitReached: false });
  });

  it('lists the leads with a link to each conversation', async () => {
    api.leadsApi.list.mockResolvedValue({
      leads: [lead(), lead({ id: 30, name: null, email: null, phone: '+353 1 555 0100', conversationId: 12 })],
      nextCursor: null,
    });
    renderSection();
    const table = await screen.findByRole('table', { name: 'Leads' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]).getByText('Ann Lee')).toBeInTheDocument();
    expect(within(rows[1]).getByRole('link', { name: 'ann@example.org' })).toHaveAttribute(
      'href',
      'mailto:ann@example.org',
    );
    expect(within(rows[1]).getByRole('link', { name: /Open the conversation/ })).toHaveAttribute(
      'href',
      '/dashboard/conversations?c=11',
    );
    expect(within(rows[2]).getByRole('link', { name: '+353 1 555 0100' })).toHaveAttribute('href', 'tel:+35315550100');
    expect(api.leadsApi.list).toHaveBeenCalledWith(null, null, expect.any(AbortSignal));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('shows each lead as a card with its contact and message on a phone, where a table hides them', async () => {
    stubScreen('phone');
    api.leadsApi.list.mockResolvedValue({
      leads: [lead(), lead({ id: 30, name: null, email: null, phone: '+353 1 555 0100', message: null })],
      nextCursor: null,
    });
    renderSection();
    const list = await screen.findByRole('list', { name: 'Leads' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]).getByText('Ann Lee')).toBeInTheDocument();
    expect(within(cards[0]).getByRole('link', { name: 'ann@example.org' })).toHaveAttribute(
      'href',
      'mailto:ann@example.org',
    );
    expect(within(cards[0]).getByText('Please call me back')).toBeInTheDocument();
    expect(within(cards[0]).getByRole('link', { name: /Open the conversation/ })).toHaveAttribute(
      'href',
      '/dashboard/conversations?c=11',
    );
    expect(within(cards[1]).getByRole('link', { name: '+353 1 555 0100' })).toHaveAttribute('href', 'tel:+35315550100');
    expect(within(cards[1]).getByRole('button', { name: 'Delete the lead from +353 1 555 0100' })).toBeInTheDocument();
  });

  it('says so when there are no leads yet', async () => {
    api.leadsApi.list.mockResolvedValue({ leads: [], nextCursor: null });
    renderSection();
    expect(await screen.findByText('No leads yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled();
  });

  it('shows an error with Retry, which loads again', async () => {
    api.leadsApi.list.mockRejectedValueOnce(new Error('down')).mockResolvedValue({ leads: [lead()], nextCursor: null });
    renderSection();
    expect(await screen.findByText('Error fetching leads.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Ann Lee')).toBeInTheDocument();
  });

  it('filters by bot from the address and loads more with the cursor', async () => {
    api.leadsApi.list
      .mockResolvedValueOnce({ leads: [lead()], nextCursor: 'next-page' })
      .mockResolvedValueOnce({ leads: [lead({ id: 29, name: 'Bo' })], nextCursor: null });
    renderSection('/dashboard/leads?botId=1');
    expect(await screen.findByText('Ann Lee')).toBeInTheDocument();
    expect(api.leadsApi.list).toHaveBeenCalledWith(1, null, expect.any(AbortSignal));
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Bo')).toBeInTheDocument();
    expect(api.leadsApi.list).toHaveBeenLastCalledWith(1, 'next-page', expect.any(AbortSignal));
    expect(screen.getByText('Ann Lee')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('deletes a lead after confirming', async () => {
    api.leadsApi.list.mockResolvedValue({ leads: [lead()], nextCursor: null });
    api.leadsApi.remove.mockResolvedValue({});
    renderSection();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete the lead from Ann Lee' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this lead?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.leadsApi.remove).toHaveBeenCalledWith(31));
    expect(await screen.findByText('No leads yet')).toBeInTheDocument();
  });

  it('exports the shown bot filter', async () => {
    api.leadsApi.list.mockResolvedValue({ leads: [lead()], nextCursor: null });
    api.leadsApi.exportFile.mockRejectedValue(new Error('down'));
    renderSection('/dashboard/leads?botId=2');
    await screen.findByText('Ann Lee');
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(api.leadsApi.exportFile).toHaveBeenCalledWith(2));
    expect(await screen.findByText('Error exporting leads.')).toBeInTheDocument();
  });
});
