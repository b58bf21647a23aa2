import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import type { ComponentType } from 'react';
import type { DropzoneState } from 'react-dropzone';

export interface FileDropAreaProps {
  /** What `useDropzone` returned for this area. */
  dropzone: Pick<DropzoneState, 'getRootProps' | 'getInputProps' | 'isDragActive'>;
  /** While a file is being sent the area shows a progress cursor and does not light up on hover. */
  busy: boolean;
  /** The area's accessible name. */
  label: string;
  icon: ComponentType<SvgIconProps>;
  /** The bold line, while nothing is dragged over the area and while something is. */
  prompt: string;
  dropPrompt: string;
  /** The line under it: which files, how large. */
  hint: string;
  /** Tests find the hidden file input by it. */
  inputTestId: string;
  /** The smaller size, for an area inside a page rather than a dialog. */
  compact?: boolean;
}

/** A dashed area to drop files on or click to choose them. */
export function FileDropArea({
  dropzone: { getRootProps, getInputProps, isDragActive },
  busy,
  label,
  icon: Icon,
  prompt,
  dropPrompt,
  hint,
  inputTestId,
  compact = false,
}: FileDropAreaProps) {
  return (
    <Box
      {...getRootProps()}
      aria-label={label}
      sx={(theme) => ({
        p: compact ? 3 : 4,
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
      <input {...getInputProps()} data-testid={inputTestId} />
      <Icon color={isDragActive ? 'primary' : 'action'} sx={{ fontSize: compact ? 36 : 40, mb: 1 }} aria-hidden />
      <Typography variant="body1" sx={{ fontWeight: 600 }}>
        {isDragActive ? dropPrompt : prompt}
      </Typography>
      <Typography variant="body2" color="textSecondary">
        {hint}
      </Typography>
    </Box>
  );
}

export interface UploadProgressProps {
  /** How much is sent, from 0 to 1. */
  fraction: number;
  /** The bar's accessible name. */
  label: string;
  /** The words before the percentage, e.g. "Uploading report.pdf…". */
  caption: string;
}

/** A bar and a line saying how much of an upload is sent. */
export function UploadProgress({ fraction, label, caption }: UploadProgressProps) {
  const percent = Math.round(fraction * 100);
  return (
    <>
      <LinearProgress variant="determinate" value={percent} aria-label={label} />
      <Typography variant="caption" color="textSecondary">
        {caption} {percent}%
      </Typography>
    </>
  );
}
