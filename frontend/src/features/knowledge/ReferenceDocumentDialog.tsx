import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { DocumentResponse } from '../../api/types';
import { DocumentDropzone } from '../bots/DocumentDropzone';

export interface ReferenceDocumentDialogProps {
  botId: number;
  open: boolean;
  document: DocumentResponse | null;
  onClose: () => void;
  onUploaded: (document: DocumentResponse) => void;
}

/**
 * The "Reference document" upload (docs/product.md#edit-bot-modal), as one of the sources: the PDF becomes the source
 * marked "Reference document" and replaces the one before; the same PDF already among the files
 * becomes the reference document instead of a second copy (docs/product.md#knowledge-sources).
 */
export function ReferenceDocumentDialog({ botId, open, document, onClose, onUploaded }: ReferenceDocumentDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="reference-document-title">
      <DialogTitle id="reference-document-title">Reference document</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          Upload a PDF (a handbook, price list or FAQ) and the bot will use it to answer. A new upload replaces the
          current document.
        </DialogContentText>
        <DocumentDropzone
          botId={botId}
          document={document}
          onUploaded={(uploaded) => {
            onUploaded(uploaded);
            onClose();
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
