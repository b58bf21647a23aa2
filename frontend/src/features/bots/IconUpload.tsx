import ChatBubbleRounded from '@mui/icons-material/ChatBubbleRounded';
import DeleteOutline from '@mui/icons-material/DeleteOutlineRounded';
import UploadRounded from '@mui/icons-material/UploadRounded';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useRef, useState, type ChangeEvent } from 'react';
import { uploadsApi } from '../../api';
import { BOT_LIMITS } from './botOptions';
import { serverMessage } from '../../api/serverMessage';

export const ICON_TOO_BIG = 'Image is too big. Keep under 500KB in size.';
export const ICON_UPLOAD_FAILED = 'Icon upload failed.';

export interface IconUploadProps {
  botId: number;
  /** The current icon address, or '' for the default icon. */
  value: string;
  /** The launcher's background, shown behind the icon. */
  background: string;
  /** A new icon was stored (and set on the bot by the server). */
  onUploaded: (fileUrl: string) => void;
  /** The owner wants the default icon back (saved with the styling). */
  onRemove: () => void;
}

/** The launcher icon: PNG, JPEG, GIF or WebP under 500KB, shown at 60x60 as visitors see it. */
export function IconUpload({ botId, value, background, onUploaded, onRemove }: IconUploadProps) {
  const { enqueueSnackbar } = useSnackbar();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    if (file.size >= BOT_LIMITS.iconMaxBytes) {
      setError(ICON_TOO_BIG);
      return;
    }
    setBusy(true);
    try {
      const { fileUrl } = await uploadsApi.uploadIcon(botId, file);
      onUploaded(fileUrl);
    } catch (failure) {
      setError(serverMessage(failure));
      enqueueSnackbar(ICON_UPLOAD_FAILED, { variant: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Avatar
          src={value || undefined}
          alt=""
          variant="circular"
          sx={{ width: 60, height: 60, backgroundImage: background, color: 'common.white', boxShadow: 2 }}
        >
          {busy ? <CircularProgress size={24} color="inherit" aria-label="Uploading icon" /> : <ChatBubbleRounded />}
        </Avatar>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="subtitle2" component="h4" sx={{ fontWeight: 600 }}>
            Bubble icon
          </Typography>
          <Typography variant="body2" color="textSecondary">
            PNG, JPEG, GIF or WebP, under 500KB. Shown at 60x60.
          </Typography>
        </Box>
      </Stack>
      <Stack direction="row" spacing={1} sx={{ mt: 1.5, flexWrap: 'wrap', rowGap: 1 }}>
        <Button
          variant="outlined"
          size="small"
          startIcon={<UploadRounded />}
          disabled={busy}
          onClick={() => input.current?.click()}
        >
          {value ? 'Replace icon' : 'Upload icon'}
        </Button>
        {value && (
          <Button size="small" color="inherit" startIcon={<DeleteOutline />} disabled={busy} onClick={onRemove}>
            Use default icon
          </Button>
        )}
        <input
          ref={input}
          type="file"
          hidden
          accept="image/png,image/jpeg,image/gif,image/webp"
          aria-label="Bubble icon file"
          data-testid="icon-input"
          onChange={(event) => void choose(event)}
        />
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}
