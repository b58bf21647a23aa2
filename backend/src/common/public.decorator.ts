import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'botsmith:isPublic';

/** Marks a route as reachable without a session. Everything else is denied by default. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
