import CloseRounded from '@mui/icons-material/CloseRounded';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { exampleFullSrc, exampleImage, type Example } from './landingContent';

export interface ExampleViewerProps {
  /** The example to show; null keeps the viewer closed. */
  example: Example | null;
  onClose: () => void;
}

/** Modal image viewer for an example card. A click on the backdrop or Escape closes it. */
export function ExampleViewer({ example, onClose }: ExampleViewerProps) {
  return (
    <Dialog
      open={example !== null}
      onClose={onClose}
      aria-labelledby="example-viewer-title"
      aria-describedby="example-viewer-description"
      maxWidth={false}
      slotProps={{
        paper: { sx: { m: 2, p: { xs: 2, sm: 3 }, maxWidth: 460, width: '100%', overflow: 'visible' } },
        backdrop: { sx: { backdropFilter: 'blur(4px)' } },
      }}
    >
      {example && (
        <>
          <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 2, mb: 2 }}>
            <Box sx={{ flex: 1 }}>
              <Typography id="example-viewer-title" variant="h4" component="h2">
                {example.name}
              </Typography>
              <Typography id="example-viewer-description" variant="body2" sx={{ color: 'text.secondary' }}>
                {example.description}
              </Typography>
            </Box>
            <IconButton aria-label="Close" onClick={onClose} edge="end" size="small">
              <CloseRounded />
            </IconButton>
          </Box>
          <Box
            component="img"
            src={exampleFullSrc(example)}
            alt={`The ${example.botName} chat window styled for a ${example.name.toLowerCase()}.`}
            width={exampleImage.full.width}
            height={exampleImage.full.height}
            sx={{ display: 'block', width: '100%', height: 'auto', maxHeight: '70vh', objectFit: 'contain' }}
          />
        </>
      )}
    </Dialog>
  );
}
