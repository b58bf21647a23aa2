import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ExpandLessRounded from '@mui/icons-material/ExpandLessRounded';
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import LanguageRounded from '@mui/icons-material/LanguageRounded';
import NotesRounded from '@mui/icons-material/NotesRounded';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import RefreshRounded from '@mui/icons-material/RefreshRounded';
import TaskAltRounded from '@mui/icons-material/TaskAltRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import type { ReactNode } from 'react';
import type { SourceResponse, RefreshSchedule } from '../../api/types';
import { DEFAULT_REFRESH_SCHEDULE, REFRESH_CHOICES, refreshFacts, sourceFacts } from './knowledgeLimits';

export interface SourceRowProps {
  source: SourceResponse;
  /** True while this row's refresh, schedule or delete request is on its way. */
  busy: boolean;
  onRefresh: (source: SourceResponse) => void;
  /** A website's new refresh schedule, chosen on the row. */
  onSchedule: (source: SourceResponse, schedule: RefreshSchedule) => void;
  onDelete: (source: SourceResponse) => void;
  /** A written answer or correction: opens it for editing (no Edit button without it). */
  onEdit?: (source: SourceResponse) => void;
  /** A website: whether its pages are shown under it, and the button that shows or hides them. */
  pagesOpen?: boolean;
  onTogglePages?: (source: SourceResponse) => void;
  /** Shown under the row (a website's pages). */
  children?: ReactNode;
}

const KIND_LABEL = { file: 'File', website: 'Website', text: 'Written answer' } as const;

/** What the row says the source is: a correction and the reference document are named as such. */
export function kindLabel(source: SourceResponse): string {
  if (source.correction) return 'Correction';
  if (source.reference) return 'Reference document';
  return KIND_LABEL[source.kind];
}

function KindIcon({ source }: { source: SourceResponse }) {
  const props = { fontSize: 'small', 'aria-hidden': true } as const;
  switch (source.kind) {
    case 'website':
      return <LanguageRounded {...props} />;
    case 'text':
      return <NotesRounded {...props} />;
    case 'file':
      return /\.pdf$/i.test(source.name) ? <PictureAsPdfOutlined {...props} /> : <DescriptionOutlined {...props} />;
  }
}

function StatusChip({ status }: { status: SourceResponse['status'] }) {
  switch (status) {
    case 'processing':
      return (
        <Chip
          size="small"
          color="info"
          variant="outlined"
          icon={<CircularProgress size={12} color="inherit" aria-hidden />}
          label="Processing"
        />
      );
    case 'ready':
      return (
        <Chip size="small" color="success" variant="outlined" icon={<TaskAltRounded aria-hidden />} label="Ready" />
      );
    case 'failed':
      return (
        <Chip size="small" color="error" variant="outlined" icon={<ErrorOutlineRounded aria-hidden />} label="Failed" />
      );
  }
}

/** One source: what it is, its state, its size, and the actions on it. */
export function SourceRow({
  source,
  busy,
  onRefresh,
  onSchedule,
  onDelete,
  onEdit,
  pagesOpen = false,
  onTogglePages,
  children,
}: SourceRowProps) {
  const processing = source.status === 'processing';
  const facts = sourceFacts(source);
  const refreshable = source.kind !== 'text';
  return (
    <Box
      component="li"
      aria-label={source.name}
      sx={{
        position: 'relative',
        listStyle: 'none',
        px: 2,
        py: 1.5,
        '& + &': { borderTop: 1, borderColor: 'divider' },
      }}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <Tooltip title={kindLabel(source)}>
          <Box
            sx={(theme) => ({
              flex: 'none',
              display: 'grid',
              placeItems: 'center',
              width: 36,
              height: 36,
              borderRadius: 2,
              color: source.status === 'failed' ? 'error.main' : 'primary.main',
              bgcolor: alpha(source.status === 'failed' ? theme.palette.error.main : theme.palette.primary.main, 0.09),
            })}
          >
            <KindIcon source={source} />
          </Box>
        </Tooltip>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="body2" noWrap sx={{ fontWeight: 600 }} title={source.name}>
            {source.name}
          </Typography>
          {/* One line on a wide screen; on a phone it wraps (a long address breaks anywhere), so the
              size, pages and passages after the address are not cut off. */}
          <Typography
            variant="caption"
            color="textSecondary"
            component="p"
            sx={{
              whiteSpace: { xs: 'normal', sm: 'nowrap' },
              overflowWrap: 'anywhere',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
            }}
          >
            {source.url ? (
              <Link href={source.url} target="_blank" rel="noopener noreferrer" color="inherit" underline="hover">
                {source.url}
              </Link>
            ) : source.correction && source.question ? (
              `Correction · asked: “${source.question}”`
            ) : (
              kindLabel(source)
            )}
            {facts.length > 0 && ` · ${facts.join(' · ')}`}
          </Typography>
        </Box>
        {/* On a phone a ready source's name needs the room; the other states always show. */}
        <Box sx={{ flex: 'none', display: source.status === 'ready' ? { xs: 'none', sm: 'block' } : 'block' }}>
          <StatusChip status={source.status} />
        </Box>
        <Stack direction="row" sx={{ flex: 'none' }}>
          {source.kind === 'text' && onEdit && (
            <Tooltip title="Edit">
              <span>
                <IconButton
                  size="small"
                  aria-label={`Edit ${source.name}`}
                  disabled={busy}
                  onClick={() => onEdit(source)}
                >
                  <EditOutlined fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          )}
          {refreshable && (
            <Tooltip title="Read again">
              <span>
                <IconButton
                  size="small"
                  aria-label={`Read ${source.name} again`}
                  disabled={busy || processing}
                  onClick={() => onRefresh(source)}
                >
                  <RefreshRounded fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          )}
          <Tooltip title="Delete">
            <span>
              <IconButton
                size="small"
                aria-label={`Delete ${source.name}`}
                disabled={busy}
                onClick={() => onDelete(source)}
              >
                <DeleteOutlineRounded fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        </Stack>
      </Stack>
      {source.kind === 'website' && (
        <Stack
          direction="row"
          spacing={1.5}
          sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5, mt: 1, ml: 6.5 }}
        >
          <TextField
            select
            size="small"
            label="Read again"
            value={source.refreshSchedule ?? DEFAULT_REFRESH_SCHEDULE}
            disabled={busy}
            onChange={(event) => onSchedule(source, event.target.value as RefreshSchedule)}
            sx={{ width: 140, flex: 'none' }}
          >
            {REFRESH_CHOICES.map((choice) => (
              <MenuItem key={choice.value} value={choice.value}>
                {choice.label}
              </MenuItem>
            ))}
          </TextField>
          <Typography variant="caption" color="textSecondary">
            {refreshFacts(source).join(' · ')}
          </Typography>
          {onTogglePages && (
            <Button
              size="small"
              aria-expanded={pagesOpen}
              aria-label={`${pagesOpen ? 'Hide' : 'Show'} the pages of ${source.name}`}
              endIcon={pagesOpen ? <ExpandLessRounded /> : <ExpandMoreRounded />}
              onClick={() => onTogglePages(source)}
            >
              {pagesOpen ? 'Hide pages' : 'Pages'}
            </Button>
          )}
        </Stack>
      )}
      {children && <Box sx={{ mt: 0.5, ml: { xs: 0, sm: 6.5 } }}>{children}</Box>}
      {source.status === 'failed' && source.error && (
        <Typography variant="body2" color="error" sx={{ mt: 0.75, ml: 6.5 }}>
          {source.error}
        </Typography>
      )}
      {source.status === 'ready' && source.notice && (
        // What the owner should know about a ready source: its crawl stopped at a quota, its last
        // refresh failed, its embedding waits for the account's daily quota (docs/product.md#quotas).
        <Typography variant="body2" sx={{ mt: 0.75, ml: 6.5, color: 'warning.dark' }}>
          {source.notice}
        </Typography>
      )}
      {processing && (
        <LinearProgress
          aria-label={`Reading ${source.name}`}
          sx={{ position: 'absolute', left: 0, right: 0, bottom: 0, height: 2 }}
        />
      )}
    </Box>
  );
}
