import type { SourcePagesPage } from '@botsmith/contract';
import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import TaskAltRounded from '@mui/icons-material/TaskAltRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback } from 'react';
import { knowledgeApi } from '../../api';
import { RetryAlert } from '../../components/RetryAlert';
import { useApiPages } from '../../hooks/useApiPages';
import { serverMessage } from '../../api/serverMessage';
import { formatMoment } from './knowledgeLimits';

export interface SourcePagesProps {
  botId: number;
  sourceId: number;
  /** The website's name, for the list's label. */
  name: string;
}

export const PAGES_LOAD_FAILED = 'The pages could not be loaded.';

const appendPages = (shown: SourcePagesPage, next: SourcePagesPage): SourcePagesPage => ({
  pages: [...shown.pages, ...next.pages],
  nextCursor: next.nextCursor,
});

/**
 * A website source's pages as its last crawl read them, each with its status: "Read" (the bot
 * answers from it) or "No text" (read, nothing to answer from). 50 at a time, "Show more" for
 * the next (docs/product.md#knowledge-sources).
 */
export function SourcePages({ botId, sourceId, name }: SourcePagesProps) {
  const loadPage = useCallback(
    (cursor: string | null, signal: AbortSignal) => knowledgeApi.pages(botId, sourceId, cursor, signal),
    [botId, sourceId],
  );
  const first = useApiPages(loadPage, appendPages);

  if (first.status === 'loading') {
    return (
      <Stack spacing={0.5} aria-busy="true" aria-label={`Loading the pages of ${name}`} sx={{ py: 1 }}>
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} width={`${70 - row * 15}%`} />
        ))}
      </Stack>
    );
  }
  if (first.status === 'error') {
    return (
      <Box sx={{ py: 1 }}>
        <RetryAlert onRetry={first.reload}>{serverMessage(first.error) ?? PAGES_LOAD_FAILED}</RetryAlert>
      </Box>
    );
  }
  const { pages } = first.data;
  if (pages.length === 0) {
    return (
      <Typography variant="body2" color="textSecondary" sx={{ py: 1 }}>
        No pages read yet. They appear here once the website has been read.
      </Typography>
    );
  }
  return (
    <Box sx={{ py: 0.5 }}>
      <Box component="ul" aria-label={`Pages of ${name}`} sx={{ m: 0, p: 0 }}>
        {pages.map((page) => (
          <Stack
            key={page.url}
            component="li"
            direction="row"
            spacing={1}
            sx={{ listStyle: 'none', alignItems: 'center', py: 0.5, minWidth: 0 }}
          >
            {page.status === 'ready' ? (
              <Chip
                size="small"
                color="success"
                variant="outlined"
                icon={<TaskAltRounded aria-hidden />}
                label="Read"
                sx={{ flex: 'none' }}
              />
            ) : (
              <Chip
                size="small"
                color="warning"
                variant="outlined"
                icon={<ErrorOutlineRounded aria-hidden />}
                label="No text"
                sx={{ flex: 'none' }}
              />
            )}
            <Box sx={{ minWidth: 0, flex: 1 }}>
              <Typography variant="body2" noWrap title={page.title ?? page.url}>
                <Link href={page.url} target="_blank" rel="noopener noreferrer" underline="hover">
                  {page.title || page.url}
                </Link>
              </Typography>
              <Typography variant="caption" color="textSecondary" component="p" noWrap>
                {page.status === 'ready'
                  ? `${page.chunks} ${page.chunks === 1 ? 'passage' : 'passages'}`
                  : 'Nothing to answer from'}{' '}
                · read {formatMoment(page.readAt)}
              </Typography>
            </Box>
          </Stack>
        ))}
      </Box>
      {first.hasMore && (
        <Button size="small" onClick={first.showMore} loading={first.loadingMore} sx={{ mt: 0.5 }}>
          Show more pages
        </Button>
      )}
      {first.moreError !== null && (
        <Typography variant="body2" color="error" role="alert">
          {serverMessage(first.moreError) ?? PAGES_LOAD_FAILED}
        </Typography>
      )}
    </Box>
  );
}
