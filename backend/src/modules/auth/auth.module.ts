import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OriginGuard } from '../../common/origin.guard.js';
import { APP_CONFIG } from '../../config/config.js';
import { MailModule } from '../mail/mail.module.js';
import { UsersModule } from '../users/users.module.js';
import { AuthTokenEntity } from './auth-token.entity.js';
import { AUTH_THROTTLE_STORAGE, AuthThrottle, createAuthThrottleStorage } from './auth-throttle.js';
import { AuthTokensRepository } from './auth-tokens.repository.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { LocalStrategy } from './local.strategy.js';
import { PendingSignupEntity } from './pending-signup.entity.js';
import { PendingSignupsRepository } from './pending-signups.repository.js';
import { SessionSerializer } from './session.serializer.js';
import { SessionsRepository } from './sessions.repository.js';

@Module({
  imports: [
    PassportModule.register({ session: true }),
    TypeOrmModule.forFeature([AuthTokenEntity, PendingSignupEntity]),
    UsersModule,
    MailModule,
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    LocalStrategy,
    SessionSerializer,
    AuthTokensRepository,
    PendingSignupsRepository,
    SessionsRepository,
    AuthThrottle,
    { provide: AUTH_THROTTLE_STORAGE, useFactory: createAuthThrottleStorage, inject: [APP_CONFIG] },
    // Global: every state-changing request from a browser must come from the product's own origin.
    { provide: APP_GUARD, useClass: OriginGuard },
  ],
  exports: [AuthService],
})
export class AuthModule {}
