import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import UploadFileRounded from '@mui/icons-material/UploadFileRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useDropzone, type FileRejection } from 'react-dropzone';
import { uploadsApi } from '../../api';
import { FileDropArea, UploadProgress } from '../../components/FileDropArea';
import type { DocumentResponse } from '../../api/types';
import { BOT_LIMITS } from './botOptions';
import { serverMessage } from '../../api/serverMessage';

export interface DocumentDropzoneProps {
  botId: number;
  document: DocumentResponse | null;
  onUploaded: (document: DocumentResponse) => void;
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

  const dropzone = useDropzone({
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
      <FileDropArea
        dropzone={dropzone}
        busy={busy}
        label={document ? 'Replace the reference PDF' : 'Upload a reference PDF'}
        icon={UploadFileRounded}
        prompt="Drag a PDF here, or click to choose one"
        dropPrompt="Drop the PDF here"
        hint="One text-based PDF, under 10MB. The bot answers from its content."
        inputTestId="document-input"
        compact
      />
      {state.phase === 'sending' && (
        <Box sx={{ mt: 1.5 }}>
          <UploadProgress fraction={state.fraction} label="Upload progress" caption="Uploading…" />
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
