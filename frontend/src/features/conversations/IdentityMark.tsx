import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';

export interface IdentityMarkProps {
  /** Set when the visitor's name or e-mail is shown beside the mark. */
  shown: boolean;
  /** The owner's server signed the visitor in (docs/product.md#verified-visitors). */
  verified: boolean;
}

/** Why the mark is there: whoever runs the host page can set the name and e-mail to anything. */
export const UNVERIFIED_HINT =
  'The website told the chat this name and e-mail (Botsmith.identify). Nobody has checked them.';
/** A verified visitor: the website's server signed them in with the bot's identity secret. */
export const VERIFIED_HINT = "Your website's server signed this visitor in with the bot's identity secret.";

/**
 * "verified" or "unverified" beside a visitor's name and e-mail: a name from the host page alone
 * (Botsmith.identify) is something anyone on it can set, so the inbox never presents it as proven;
 * a visitor the owner's server signed (an identity token) is shown as verified.
 */
export function IdentityMark({ shown, verified }: IdentityMarkProps) {
  if (verified) {
    return (
      <Tooltip title={VERIFIED_HINT}>
        <Box component="span" sx={{ color: 'success.main', fontWeight: 600 }}>
          {' · verified'}
        </Box>
      </Tooltip>
    );
  }
  if (!shown) return null;
  return (
    <Tooltip title={UNVERIFIED_HINT}>
      <Box component="span" sx={{ color: 'text.secondary', fontStyle: 'italic', fontWeight: 400 }}>
        {' · unverified'}
      </Box>
    </Tooltip>
  );
}
