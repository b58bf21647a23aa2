/** The OpenAPI security schemes' names (defined in api-reference.ts). */
export const SECURITY = {
  /** The dashboard's session cookie, set by POST /api/auth/login. */
  session: 'session',
  /** A bot's API key, sent by the owner's own server to POST /api/chat. */
  botApiKey: 'botApiKey',
} as const;
