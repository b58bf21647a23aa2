import { SetMetadata } from '@nestjs/common';

export const SKIP_ORIGIN_CHECK = 'botsmith:skipOriginCheck';

/**
 * For routes meant to be called from other origins and that carry no session semantics
 * (the widget's chat, provider webhooks). Everything else that changes state must come from
 * the product's own origin when a browser sends it (see OriginGuard).
 */
export const SkipOriginCheck = (): MethodDecorator & ClassDecorator => SetMetadata(SKIP_ORIGIN_CHECK, true);
