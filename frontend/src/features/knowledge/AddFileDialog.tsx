import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useDropzone, type FileRejection } from 'react-dropzone';
import { knowledgeApi } from '../../api';
import { FileDropArea, UploadProgress } from '../../components/FileDropArea';
import { serverMessage } from '../../api/serverMessage';
import { KNOWLEDGE_FILE_TYPES, KNOWLEDGE_LIMITS } from './knowledgeLimits';

export interface AddFileDialogProps {
  botId: number;
  open: boolean;
  onClose: () => void;
  /** Called after each file the server accepted (it is then read in the background). */
  onAdded: (name: string) => void;
}

const UPLOAD_FAILED = 'Upload failed.';

type Sending = { name: string; fraction: number } | null;

/**
 * Drop or choose files (PDF, DOCX, TXT, Markdown, HTML, CSV; 10 MB each). They are sent one at a
 * time; the dialog closes once all were accepted, and otherwise stays open with each refusal.
 */
export function AddFileDialog({ botId, open, onClose, onAdded }: AddFileDialogProps) {
  const [sending, setSending] = useState<Sending>(null);
  const [errors, setErrors] = useState<string[]>([]);

  const close = () => {
    if (sending) return;
    setErrors([]);
    onClose();
  };

  const upload = async (files: File[], refused: string[]) => {
    const failures = [...refused];
    for (const file of files) {
      setSending({ name: file.name, fraction: 0 });
      try {
        await knowledgeApi.addFile(botId, file, {
          onProgress: (fraction) => setSending({ name: file.name, fraction }),
        });
        onAdded(file.name);
      } catch (failure) {
        failures.push(`${file.name}: ${serverMessage(failure) ?? UPLOAD_FAILED}`);
      }
    }
    setSending(null);
    setErrors(failures);
    if (failures.length === 0) onClose();
  };

  const onDrop = (accepted: File[], rejected: FileRejection[]) => {
    const refused = rejected.map(
      ({ file, errors: reasons }) =>
        `${file.name}: ${
          reasons.some((reason) => reason.code === 'file-too-large')
            ? 'This file is too big. Keep each file under 10 MB.'
            : reasons.some((reason) => reason.code === 'file-too-small')
              ? 'This file is empty.'
              : 'This file type is not supported. Upload a PDF, Word (DOCX), text, Markdown, HTML or CSV file.'
        }`,
    );
    setErrors([]);
    if (accepted.length > 0) void upload(accepted, refused);
    else setErrors(refused);
  };

  const dropzone = useDropzone({
    onDrop,
    accept: KNOWLEDGE_FILE_TYPES,
    maxSize: KNOWLEDGE_LIMITS.fileMaxBytes,
    minSize: 1,
    multiple: true,
    disabled: Boolean(sending),
  });

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="add-file-title">
      <DialogTitle id="add-file-title">Add files</DialogTitle>
      <DialogContent>
        <FileDropArea
          dropzone={dropzone}
          busy={Boolean(sending)}
          label="Choose files to add"
          icon={CloudUploadOutlined}
          prompt="Drag files here, or click to choose"
          dropPrompt="Drop the files here"
          hint="PDF, Word (DOCX), text, Markdown, HTML or CSV, up to 10 MB each."
          inputTestId="knowledge-file-input"
        />
        {sending && (
          <Box sx={{ mt: 2 }}>
            <UploadProgress
              fraction={sending.fraction}
              label={`Uploading ${sending.name}`}
              caption={`Uploading ${sending.name}…`}
            />
          </Box>
        )}
        {errors.length > 0 && (
          <Stack spacing={1} sx={{ mt: 2 }}>
            {errors.map((message) => (
              <Alert key={message} severity="error">
                {message}
              </Alert>
            ))}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={Boolean(sending)}>
          {errors.length > 0 ? 'Close' : 'Cancel'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
