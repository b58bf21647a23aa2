import type { LeadSummary, LeadsPage } from '@botsmith/contract';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useCallback, useEffect, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { leadsApi } from '../../api';
import type { BotResponse } from '../../api/types';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { MailLimitNotice } from '../../components/MailLimitNotice';
import { RetryAlert } from '../../components/RetryAlert';
import { useApiPages } from '../../hooks/useApiPages';
import { inboxLink } from '../conversations/inboxParams';
import { saveFile } from '../../lib/saveFile';
import { formatDateTime } from '../../format/dateTime';

/** Where the leads page lives; `?botId=` narrows it to one bot. */
export const LEADS_PATH = '/dashboard/leads';

export interface LeadsSectionProps {
  /** The owner's bots, for the bot filter; null while loading. */
  bots: BotResponse[] | null;
}

const appendLeads = (shown: LeadsPage, next: LeadsPage): LeadsPage => ({
  leads: [...shown.leads, ...next.leads],
  nextCursor: next.nextCursor,
});

function botIdOf(search: URLSearchParams): number | null {
  const text = search.get('botId');
  return text && /^[1-9]\d{0,9}$/.test(text) ? Number(text) : null;
}

const when = (iso: string) => formatDateTime(iso);

/**
 * The owner's leads (docs/product.md#leads-and-handoff): what visitors left through the widget's
 * form, newest first, with the bot filter, more on demand, the export, deletion and a link to
 * each lead's conversation in the inbox.
 */
export function LeadsSection({ bots }: LeadsSectionProps) {
  const { enqueueSnackbar } = useSnackbar();
  const [searchParams, setSearchParams] = useSearchParams();
  const botId = botIdOf(searchParams);
  const loadPage = useCallback(
    (cursor: string | null, signal: AbortSignal) => leadsApi.list(botId, cursor, signal),
    [botId],
  );
  const list = useApiPages(loadPage, appendLeads);
  const { update, moreError } = list;
  useEffect(() => {
    if (moreError !== null) enqueueSnackbar('Error loading more leads.', { variant: 'error' });
  }, [moreError, enqueueSnackbar]);
  const [exporting, setExporting] = useState(false);
  const [deleting, setDeleting] = useState<LeadSummary | null>(null);

  const exportFile = async () => {
    setExporting(true);
    try {
      const { blob, fileName } = await leadsApi.exportFile(botId);
      saveFile(blob, fileName ?? `leads_${new Date().toISOString().slice(0, 10)}.xlsx`);
    } catch {
      enqueueSnackbar('Error exporting leads.', { variant: 'error' });
    } finally {
      setExporting(false);
    }
  };

  const removed = useCallback(
    (id: number) => {
      setDeleting(null);
      update((shown) => ({ ...shown, leads: shown.leads.filter((lead) => lead.id !== id) }));
    },
    [update],
  );

  // A bot id from a link that is not (or no longer) the owner's shows as "All bots" rather than blank.
  const known = bots?.some((bot) => bot.id === botId) ?? false;

  return (
    <Box>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        sx={{ alignItems: { sm: 'baseline' }, justifyContent: 'space-between', gap: 2, mb: 1 }}
      >
        <Typography variant="h3" component="h1">
          Leads
        </Typography>
      </Stack>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 3 }}>
        Contacts visitors left through your bots' contact form. Each one is also e-mailed to you; turn the form on or
        off in a bot's Leads tab.
      </Typography>
      <MailLimitNotice kept="leads" />

      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1.5, mb: 2, alignItems: { sm: 'center' } }}>
        <TextField
          select
          size="small"
          label="Bot"
          value={botId !== null && known ? String(botId) : ''}
          onChange={(event) => setSearchParams(event.target.value ? { botId: event.target.value } : {})}
          sx={{ width: { xs: '100%', sm: 220 } }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          disabled={!bots}
        >
          <MenuItem value="">All bots</MenuItem>
          {bots?.map((bot) => (
            <MenuItem key={bot.id} value={String(bot.id)}>
              {bot.name}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ flex: 1 }} />
        <Button
          variant="outlined"
          startIcon={<FileDownloadOutlined />}
          onClick={() => void exportFile()}
          loading={exporting}
          disabled={list.status !== 'ready' || list.data.leads.length === 0}
        >
          Export
        </Button>
      </Stack>

      {list.status === 'loading' && (
        <Stack spacing={1} aria-busy="true" aria-label="Loading leads">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} variant="rounded" height={48} />
          ))}
        </Stack>
      )}
      {list.status === 'error' && <RetryAlert onRetry={list.reload}>Error fetching leads.</RetryAlert>}
      {list.status === 'ready' && list.data.leads.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography variant="h6" component="p">
            No leads yet
          </Typography>
          <Typography variant="body2" color="textSecondary">
            When a visitor leaves their contact through a bot's form, it shows here.
          </Typography>
        </Paper>
      )}
      {list.status === 'ready' && list.data.leads.length > 0 && (
        <>
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" aria-label="Leads">
              <TableHead>
                <TableRow>
                  <TableCell>Received</TableCell>
                  <TableCell>Bot</TableCell>
                  <TableCell>Name</TableCell>
                  <TableCell>Contact</TableCell>
                  <TableCell>Message</TableCell>
                  <TableCell align="right">
                    <Box component="span" sx={visuallyHidden}>
                      Actions
                    </Box>
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.data.leads.map((lead) => (
                  <TableRow key={lead.id}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(lead.createdAt)}</TableCell>
                    <TableCell>{lead.botName}</TableCell>
                    <TableCell>{lead.name ?? '—'}</TableCell>
                    <TableCell>
                      {lead.email && (
                        <Box>
                          <a href={`mailto:${lead.email}`}>{lead.email}</a>
                        </Box>
                      )}
                      {lead.phone && (
                        <Box>
                          <a href={`tel:${lead.phone.replace(/[^\d+]/g, '')}`}>{lead.phone}</a>
                        </Box>
                      )}
                    </TableCell>
                    <TableCell sx={{ maxWidth: 360, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {lead.message ?? '—'}
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <Tooltip title="Open the conversation">
                        <IconButton
                          component={RouterLink}
                          to={inboxLink({ conversationId: lead.conversationId })}
                          aria-label={`Open the conversation of the lead from ${lead.name ?? lead.email ?? lead.phone ?? 'a visitor'}`}
                        >
                          <ForumOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title="Delete">
                        <IconButton
                          onClick={() => setDeleting(lead)}
                          aria-label={`Delete the lead from ${lead.name ?? lead.email ?? lead.phone ?? 'a visitor'}`}
                        >
                          <DeleteOutlineRounded fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {list.hasMore && (
            <Box sx={{ mt: 2, textAlign: 'center' }}>
              <Button onClick={list.showMore} loading={list.loadingMore}>
                Load more
              </Button>
            </Box>
          )}
        </>
      )}

      <ConfirmDeleteDialog
        target={deleting}
        title="Delete this lead?"
        text="The contact is removed for good; the conversation stays in the inbox. This cannot be undone."
        deletedMessage="Lead deleted."
        failedMessage="The lead could not be deleted. Please try again."
        remove={(lead) => leadsApi.remove(lead.id)}
        onClose={() => setDeleting(null)}
        onDeleted={(lead) => removed(lead.id)}
      />
    </Box>
  );
}

const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
