import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { usageApi } from '../../api';
import { useApiResource } from '../../hooks/useApiResource';
import { saveFile } from '../../lib/saveFile';

/** `user_logs_{YYYY-MM-DD}_{HH-mm-ss}.xlsx` (UTC), used when the server did not name the file. */
export function defaultLogsFileName(now: Date = new Date()): string {
  const iso = now.toISOString();
  return `user_logs_${iso.slice(0, 10)}_${iso.slice(11, 19).replaceAll(':', '-')}.xlsx`;
}

const loadUsage = () => usageApi.getUserUsage();

/** Settings > Logs: every conversation of every bot as an Excel file, when there is at least one message. */
export function LogsTab() {
  const { enqueueSnackbar } = useSnackbar();
  const usage = useApiResource(loadUsage);
  // Unknown while loading; a failed read offers no download (and says so in a toast).
  const logsAvailable = usage.status === 'ready' ? usage.data.logsAvailable : usage.status === 'error' ? false : null;
  const usageFailed = usage.status === 'error';
  useEffect(() => {
    if (usageFailed) enqueueSnackbar('Error fetching usage info.', { variant: 'error' });
  }, [usageFailed, enqueueSnackbar]);
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      const { blob, fileName } = await usageApi.downloadLogs();
      saveFile(blob, fileName ?? defaultLogsFileName());
    } catch {
      enqueueSnackbar('Error downloading logs.', { variant: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Typography color="textSecondary">
        Download every conversation of all your bots as an Excel file: one row per message (time in UTC, bot,
        conversation, role, text, model, tokens and cost), with a summary per bot.
      </Typography>
      {logsAvailable === null ? (
        <Skeleton width={160} height={44} aria-label="Checking for logs" />
      ) : (
        <>
          <Button variant="contained" onClick={() => void download()} disabled={!logsAvailable || downloading}>
            {downloading ? 'Preparing…' : 'Download Logs'}
          </Button>
          {!logsAvailable && (
            <Typography variant="body2" color="textSecondary">
              No logs yet: they appear after your bots' first conversation.
            </Typography>
          )}
        </>
      )}
    </Stack>
  );
}
