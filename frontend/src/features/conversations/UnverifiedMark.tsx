import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';

export interface UnverifiedMarkProps {
  /** Set when the visitor's name or e-mail is shown beside the mark. */
  shown: boolean;
}

/** Why the mark is there: whoever runs the host page can set the name and e-mail to anything. */
export const UNVERIFIED_HINT =
  'The website told the chat this name and e-mail (Botsmith.identify). Nobody has checked them.';

/**
 * "unverified" beside a visitor's name and e-mail: they come from the host page
 * (Botsmith.identify), which anyone on it can set, so the inbox never presents them as proven.
 */
export function UnverifiedMark({ shown }: UnverifiedMarkProps) {
  if (!shown) return null;
  return (
    <Tooltip title={UNVERIFIED_HINT}>
      <Box component="span" sx={{ color: 'text.secondary', fontStyle: 'italic', fontWeight: 400 }}>
        {' · unverified'}
      </Box>
    </Tooltip>
  );
}
