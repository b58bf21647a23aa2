import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiSecurity } from '@nestjs/swagger';

/** The OpenAPI security schemes' names (defined in api-reference.ts). */
export const SECURITY = {
  /** The dashboard's session cookie, set by POST /api/auth/login. */
  session: 'session',
  /** A bot's API key, sent by the owner's own server to POST /api/chat. */
  botApiKey: 'botApiKey',
} as const;

/**
 * A route called as a chat visitor (docs/chat-api.md): no session; the widget's X-Visitor-Token
 * and X-Page-Url (and X-Visitor-Identity for a verified visitor), or the bot's API key with
 * X-Visitor-Id from the owner's server.
 */
export function ApiVisitorCaller(
  descriptions: { token?: string; visitorId?: string } = {},
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiSecurity({}),
    ApiBearerAuth(SECURITY.botApiKey),
    ApiHeader({
      name: 'X-Page-Url',
      required: false,
      description: "The page's origin and path (the widget sends it).",
    }),
    ApiHeader({
      name: 'X-Visitor-Token',
      required: false,
      description: descriptions.token ?? "The visitor's token (widget).",
    }),
    ApiHeader({
      name: 'X-Visitor-Identity',
      required: false,
      description:
        "Who the owner's server says the visitor is (docs/product.md#verified-visitors): a JWT signed with the " +
        "bot's identity secret, or `userId=…&userHash=…` URL-encoded. A proof that fails is an anonymous visitor.",
    }),
    ApiHeader({
      name: 'X-Visitor-Id',
      required: false,
      description: descriptions.visitorId ?? "With the bot's API key: who the visitor is.",
    }),
  );
}
