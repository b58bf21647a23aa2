import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import UploadFileRounded from '@mui/icons-material/UploadFileRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useDropzone, type FileRejection } from 'react-dropzone';
import { uploadsApi } from '../../api';
import type { BotDocument } from '../../api/types';
import { BOT_LIMITS } from './botOptions';
import { serverMessage } from './botForms';

export interface DocumentDropzoneProps {
  botId: number;
  document: BotDocument | null;
  onUploaded: (document: BotDocument) => void;
}

type UploadState = { phase: 'idle' } | { phase: 'sending'; fraction: number } | { phase: 'processing' };

/**
 * The bot's reference PDF: drop or choose one file (PDF, up to 10 MB). The drop zone's own
 * messages (wrong type, too large or small, too many files) are shown as they are.
 */
export function DocumentDropzone({ botId, document, onUploaded }: DocumentDropzoneProps) {
  const { enqueueSnackbar } = useSnackbar();
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  const [errors, setErrors] = useState<string[]>([]);
  const busy = state.phase !== 'idle';

  const upload = async (file: File) => {
    setErrors([]);
    setState({ phase: 'sending', fraction: 0 });
    try {
      const { document: saved } = await uploadsApi.uploadDocument(botId, file, {
        onProgress: (fraction) => setState(fraction >= 1 ? { phase: 'processing' } : { phase: 'sending', fraction }),
      });
      onUploaded(saved);
      enqueueSnackbar('Document uploaded successfully!', { variant: 'success' });
    } catch (failure) {
      const message = serverMessage(failure);
      if (message) setErrors([message]);
      enqueueSnackbar('Document upload failed.', { variant: 'error' });
    } finally {
      setState({ phase: 'idle' });
    }
  };

  const onDrop = (accepted: File[], rejected: FileRejection[]) => {
    if (rejected.length > 0) {
      setErrors([...new Set(rejected.flatMap((rejection) => rejection.errors.map((error) => error.message)))]);
      return;
    }
    if (accepted[0]) void upload(accepted[0]);
  };

  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop,
    accept: { 'application/pdf': ['.pdf'] },
    maxSize: BOT_LIMITS.documentMaxBytes,
    minSize: 1,
    maxFiles: 1,
    multiple: false,
    disabled: busy,
  });

  return (
    <Box>
      {document && (
        <Stack
          direction="row"
          spacing={1.5}
          sx={{ alignItems: 'center', mb: 1.5, p: 1.5, borderRadius: 2, bgcolor: 'action.hover' }}
        >
          <DescriptionOutlined color="primary" aria-hidden />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="caption" color="textSecondary" component="p">
              Current document
            </Typography>
            <Link href={document.filePath} download={document.originalName} sx={{ wordBreak: 'break-all' }}>
              {document.originalName}
            </Link>
          </Box>
        </Stack>
      )}
      <Box
        {...getRootProps()}
        aria-label={document ? 'Replace the reference PDF' : 'Upload a reference PDF'}
        sx={(theme) => ({
          p: 3,
          textAlign: 'center',
          border: 2,
          borderStyle: 'dashed',
          borderRadius: 3,
          cursor: busy ? 'progress' : 'pointer',
          borderColor: isDragActive ? 'primary.main' : 'divider',
          bgcolor: isDragActive ? alpha(theme.palette.primary.main, 0.06) : 'background.default',
          transition: theme.transitions.create(['border-color', 'background-color']),
          '&:hover': { borderColor: busy ? 'divider' : 'primary.light' },
          '&:focus-visible': { outline: `3px solid ${alpha(theme.palette.primary.main, 0.45)}`, outlineOffset: 2 },
        })}
      >
        <input {...getInputProps()} data-testid="document-input" />
        <UploadFileRounded color={isDragActive ? 'primary' : 'action'} sx={{ fontSize: 36, mb: 1 }} aria-hidden />
        <Typography variant="body1" sx={{ fontWeight: 600 }}>
          {isDragActive ? 'Drop the PDF here' : 'Drag a PDF here, or click to choose one'}
        </Typography>
        <Typography variant="body2" color="textSecondary">
          One text-based PDF, under 10MB. The bot answers from its content.
        </Typography>
      </Box>
      {state.phase === 'sending' && (
        <Box sx={{ mt: 1.5 }}>
          <LinearProgress variant="determinate" value={Math.round(state.fraction * 100)} aria-label="Upload progress" />
          <Typography variant="caption" color="textSecondary">
            Uploading… {Math.round(state.fraction * 100)}%
          </Typography>
        </Box>
      )}
      {state.phase === 'processing' && (
        <Box sx={{ mt: 1.5 }}>
          <LinearProgress aria-label="Reading the document" />
          <Typography variant="caption" color="textSecondary">
            Reading the document…
          </Typography>
        </Box>
      )}
      {errors.map((message) => (
        <Alert key={message} severity="error" sx={{ mt: 1.5 }}>
          {message}
        </Alert>
      ))}
    </Box>
  );
}
