import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { knowledgeApi } from '../../api';
import { HintedTextField } from '../../components/CountedTextField';
import { FormDialog } from '../../components/DialogForm';
import type { RefreshSchedule } from '../../api/types';
import { DEFAULT_REFRESH_SCHEDULE, KNOWLEDGE_LIMITS, REFRESH_CHOICES } from './knowledgeLimits';
import { useAddSourceForm } from './useAddSourceForm';

export interface AddWebsiteDialogProps {
  botId: number;
  open: boolean;
  onClose: () => void;
  onAdded: (name: string) => void;
}

const { maxPagesDefault, maxPagesMax } = KNOWLEDGE_LIMITS;
const URL_HINT = 'Enter a full web address starting with http:// or https://.';
const PAGES_HINT = `Choose a whole number of pages from 1 to ${maxPagesMax}.`;

/**
 * A site to crawl: its address, how many pages to read at most (50 by default, 500 at most) and
 * how often it is read again by itself (weekly by default).
 */
export function AddWebsiteDialog({ botId, open, onClose, onAdded }: AddWebsiteDialogProps) {
  const [url, setUrl] = useState('');
  const [pages, setPages] = useState(String(maxPagesDefault));
  const [schedule, setSchedule] = useState<RefreshSchedule>(DEFAULT_REFRESH_SCHEDULE);

  const address = url.trim();
  const urlError = /^https?:\/\/\S+$/i.test(address) ? null : URL_HINT;
  const pageCount = Number(pages);
  const pagesError = /^\d+$/.test(pages) && pageCount >= 1 && pageCount <= maxPagesMax ? null : PAGES_HINT;

  const { form, close, submit } = useAddSourceForm({
    failureText: 'The website could not be added. Please try again.',
    clearFields: () => {
      setUrl('');
      setPages(String(maxPagesDefault));
      setSchedule(DEFAULT_REFRESH_SCHEDULE);
    },
    onClose,
    onAdded,
  });

  return (
    <FormDialog
      open={open}
      onClose={close}
      titleId="add-website-title"
      title="Add a website"
      form={form}
      onSubmit={(event) =>
        submit(event, !urlError && !pagesError, () => knowledgeApi.addWebsite(botId, address, pageCount, schedule))
      }
      submitLabel="Add website"
    >
      <HintedTextField
        label="Website address"
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        placeholder="https://www.example.com"
        autoFocus
        errorText={form.touched ? urlError : null}
        hint="Pages on the same site are read from its sitemap, or by following its links."
        slotProps={{ htmlInput: { inputMode: 'url', maxLength: 2048 } }}
      />
      <HintedTextField
        label="Pages to read at most"
        value={pages}
        onChange={(event) => setPages(event.target.value.trim())}
        errorText={form.touched ? pagesError : null}
        hint={`1 to ${maxPagesMax}; the default is ${maxPagesDefault}.`}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        sx={{ maxWidth: 240 }}
      />
      <TextField
        select
        label="Read again"
        value={schedule}
        onChange={(event) => setSchedule(event.target.value as RefreshSchedule)}
        helperText="How often the site is read again by itself, so answers follow its changes."
        sx={{ maxWidth: 240 }}
      >
        {REFRESH_CHOICES.map((choice) => (
          <MenuItem key={choice.value} value={choice.value}>
            {choice.label}
          </MenuItem>
        ))}
      </TextField>
    </FormDialog>
  );
}
