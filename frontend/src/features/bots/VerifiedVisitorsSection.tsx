import CheckRounded from '@mui/icons-material/CheckRounded';
import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import VerifiedUserRounded from '@mui/icons-material/VerifiedUserRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { botsApi } from '../../api';
import { serverMessage } from '../../api/serverMessage';
import { useApiResource } from '../../hooks/useApiResource';
import { useCopy } from './useCopy';

/**
 * Signing a user on the owner's server, with no JWT library: the same three snippets as
 * docs/chat-api.md#verified-visitors (a test checks they match).
 */
export const IDENTITY_SNIPPETS = {
  Node: `// Node.js
import { createHmac } from 'node:crypto';
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
function visitorToken(user, secret) {
  const claims = { sub: String(user.id), name: user.name, email: user.email, exp: Math.floor(Date.now() / 1000) + 3600 };
  const signed = \`\${b64({ alg: 'HS256', typ: 'JWT' })}.\${b64(claims)}\`;
  return \`\${signed}.\${createHmac('sha256', secret).update(signed).digest('base64url')}\`;
}`,
  Python: `# Python 3
import base64, hashlib, hmac, json, time
def b64(value):
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
def visitor_token(user, secret):
    claims = {"sub": str(user["id"]), "name": user["name"], "email": user["email"], "exp": int(time.time()) + 3600}
    signed = b64({"alg": "HS256", "typ": "JWT"}) + "." + b64(claims)
    mac = hmac.new(secret.encode(), signed.encode(), hashlib.sha256).digest()
    return signed + "." + base64.urlsafe_b64encode(mac).rstrip(b"=").decode()`,
  PHP: `<?php
function b64(string $bytes): string { return rtrim(strtr(base64_encode($bytes), '+/', '-_'), '='); }
function visitor_token(array $user, string $secret): string {
    $claims = ['sub' => (string) $user['id'], 'name' => $user['name'], 'email' => $user['email'], 'exp' => time() + 3600];
    $signed = b64(json_encode(['alg' => 'HS256', 'typ' => 'JWT'])) . '.' . b64(json_encode($claims));
    return $signed . '.' . b64(hash_hmac('sha256', $signed, $secret, true));
}`,
} as const;

export type IdentitySnippetLanguage = keyof typeof IDENTITY_SNIPPETS;

/** What the prompt may use of a verified visitor (docs/product.md#verified-visitors). */
export const PROMPT_PLACEHOLDERS = ['{{visitor.name}}', '{{visitor.email}}', '{{visitor.plan}}'] as const;

/** The one call on the owner's page, with the token their server made for the signed-in user. */
export const IDENTIFY_CALL = 'window.Botsmith.identify({ token });';

const codeBlockSx = {
  m: 0,
  p: 2,
  borderRadius: 2,
  bgcolor: 'grey.100',
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: '0.8125rem',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-word',
} as const;

/**
 * Verified visitors in the Deploy tab (docs/product.md#verified-visitors): whether the bot has an
 * identity secret, making or rotating it (a rotation asks first; the new secret is shown this
 * once, with a copy button), the proofs refused this week, and how to sign a user.
 */
export function VerifiedVisitorsSection({ botId }: { botId: number }) {
  const load = useCallback((signal: AbortSignal) => botsApi.identity(botId, signal).then((r) => r.identity), [botId]);
  const status = useApiResource(load);
  const [confirming, setConfirming] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [language, setLanguage] = useState<IdentitySnippetLanguage>('Node');
  const secretCopy = useCopy('Identity secret copied to clipboard!', 'Failed to copy the identity secret.');
  const snippetCopy = useCopy('Snippet copied to clipboard!', 'Failed to copy the snippet.');

  const secretSet = status.status === 'ready' && (status.data.secretSet || secret !== null);
  const refused = status.status === 'ready' ? status.data.refusedThisWeek : 0;

  const create = async () => {
    setRotating(true);
    setError(null);
    try {
      const { identitySecret } = await botsApi.rotateIdentitySecret(botId);
      setSecret(identitySecret);
      setConfirming(false);
      status.update((data) => ({ ...data, secretSet: true }));
    } catch (failure) {
      setError(serverMessage(failure) ?? 'Error making the identity secret.');
    } finally {
      setRotating(false);
    }
  };

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h6" component="h3">
          Verified visitors
        </Typography>
        <Typography variant="body2" color="textSecondary">
          If your visitors sign in on your site, your server can vouch for them: it signs the user with the bot&apos;s
          identity secret, and your page hands the token to the widget. A verified visitor keeps their conversation on
          every device and shows as verified in your inbox. Keep the secret on your server, never in a web page.
        </Typography>
      </Box>
      {status.status === 'loading' && (
        <Typography variant="body2" color="textSecondary">
          Loading…
        </Typography>
      )}
      {status.status === 'error' && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={status.reload}>
              Retry
            </Button>
          }
        >
          {serverMessage(status.error) ?? 'Could not load the identity secret status.'}
        </Alert>
      )}
      {status.status === 'ready' && (
        <>
          <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <VerifiedUserRounded fontSize="small" color={secretSet ? 'success' : 'disabled'} />
            {secretSet ? 'An identity secret is set.' : 'No identity secret yet.'}
          </Typography>
          {refused > 0 && (
            <Alert severity="warning">
              {refused === 1 ? '1 identity token refused this week' : `${refused} identity tokens refused this week`}
              {': those visitors were answered as anonymous ones.'}
            </Alert>
          )}
          {secret !== null && (
            <Stack spacing={1}>
              <Alert severity="warning">
                Copy this secret now: it will not be shown again. If you lose it, rotate it.
              </Alert>
              <TextField
                label="New identity secret"
                value={secret}
                slotProps={{
                  htmlInput: { readOnly: true, spellCheck: false },
                  input: {
                    sx: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
                    endAdornment: (
                      <InputAdornment position="end">
                        <IconButton
                          aria-label="Copy identity secret"
                          onClick={() => void secretCopy.copy(secret)}
                          size="small"
                          edge="end"
                        >
                          {secretCopy.copied ? (
                            <CheckRounded fontSize="small" />
                          ) : (
                            <ContentCopyRounded fontSize="small" />
                          )}
                        </IconButton>
                      </InputAdornment>
                    ),
                  },
                }}
              />
            </Stack>
          )}
          {confirming ? (
            <Stack spacing={1.5}>
              <Alert severity="warning">
                Tokens signed with the current secret stop working at once: those visitors are anonymous until your
                server signs with the new one.
              </Alert>
              <Stack direction="row" spacing={1.5}>
                <Button variant="contained" color="warning" disabled={rotating} onClick={() => void create()}>
                  Yes, Rotate Secret
                </Button>
                <Button variant="outlined" color="inherit" disabled={rotating} onClick={() => setConfirming(false)}>
                  Cancel
                </Button>
              </Stack>
            </Stack>
          ) : (
            <Box>
              <Button
                variant="outlined"
                disabled={rotating}
                onClick={() => (secretSet ? setConfirming(true) : void create())}
              >
                {secretSet ? 'Rotate secret' : 'Create identity secret'}
              </Button>
            </Box>
          )}
          {error && <Alert severity="error">{error}</Alert>}
        </>
      )}
      <Box>
        <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600 }}>
          Sign a user on your server
        </Typography>
        <Typography variant="body2" color="textSecondary">
          A JWT (HS256) with the user&apos;s id as <code>sub</code>, an expiry at most 24 hours ahead, and optionally
          their name, e-mail and up to 20 other values the bot may use:
        </Typography>
        <Tabs
          value={language}
          onChange={(_event, value: IdentitySnippetLanguage) => setLanguage(value)}
          aria-label="Server language"
        >
          {(Object.keys(IDENTITY_SNIPPETS) as IdentitySnippetLanguage[]).map((name) => (
            <Tab key={name} value={name} label={name} />
          ))}
        </Tabs>
        <Box component="pre" aria-label={`${language} snippet`} tabIndex={0} sx={{ ...codeBlockSx, mt: 1 }}>
          <code>{IDENTITY_SNIPPETS[language]}</code>
        </Box>
        <Button
          size="small"
          sx={{ mt: 1 }}
          startIcon={snippetCopy.copied ? <CheckRounded /> : <ContentCopyRounded />}
          onClick={() => void snippetCopy.copy(IDENTITY_SNIPPETS[language])}
        >
          Copy snippet
        </Button>
      </Box>
      <Box>
        <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
          Then, on the page, once the widget&apos;s snippet is there, hand the token to the widget:
        </Typography>
        <Box component="pre" aria-label="Identify call" tabIndex={0} sx={codeBlockSx}>
          <code>{IDENTIFY_CALL}</code>
        </Box>
        <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
          Without JWTs, pass <code>&#123; userId, userHash, name, email &#125;</code> instead, where{' '}
          <code>userHash</code> is the hex HMAC-SHA256 of <code>userId</code> keyed with the secret.
        </Typography>
      </Box>
      <Box>
        <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600 }}>
          Use it in the prompt
        </Typography>
        <Typography variant="body2" color="textSecondary">
          In the bot&apos;s prompt (Prompting tab),{' '}
          {PROMPT_PLACEHOLDERS.map((placeholder, index) => (
            <span key={placeholder}>
              {index > 0 && (index === PROMPT_PLACEHOLDERS.length - 1 ? ' and ' : ', ')}
              <code>{placeholder}</code>
            </span>
          ))}{' '}
          (any value of the token) become the verified visitor&apos;s own. For anyone not verified they are left empty,
          so write the prompt to read well either way.
        </Typography>
      </Box>
    </Stack>
  );
}
