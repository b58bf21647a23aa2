import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { Public } from '../../common/public.decorator.js';
import { AuthThrottle } from './auth-throttle.js';
import { AuthService } from './auth.service.js';
import { ForgotPasswordDto, ResetPasswordDto, SignupDto, type MessageResponse } from './auth.dto.js';
import { LoginGuard } from './login.guard.js';
import { endSession, SESSION_COOKIE, startSession } from './sessions.js';

@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly throttle: AuthThrottle,
  ) {}

  @Public()
  @Post('signup')
  @HttpCode(201)
  async signup(@Body() body: SignupDto): Promise<MessageResponse> {
    await this.throttle.hitAccountMail(body.email);
    return this.auth.signup(body.email, body.password);
  }

  /** Spends the mailed link and signs the owner in on a fresh session id. */
  @Public()
  @Get('verify-email/:token')
  async verifyEmail(@Param('token') token: string, @Req() request: Request): Promise<MessageResponse> {
    const user = await this.auth.verifyEmail(token);
    await startSession(request, user);
    return { message: 'Your email has been verified. You are now signed in.' };
  }

  @Public()
  @UseGuards(LoginGuard)
  @Post('login')
  @HttpCode(200)
  login(): MessageResponse {
    return { message: 'Logged in successfully.' };
  }

  @Public()
  @Post('logout')
  @HttpCode(200)
  async logout(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<MessageResponse> {
    await endSession(request);
    response.clearCookie(SESSION_COOKIE, { path: '/' });
    return { message: 'Logged out.' };
  }

  @Public()
  @Post('forgot-password')
  @HttpCode(200)
  async forgotPassword(@Body() body: ForgotPasswordDto): Promise<MessageResponse> {
    await this.throttle.hitAccountMail(body.email);
    return this.auth.forgotPassword(body.email);
  }

  @Public()
  @Post('reset-password/:token')
  @HttpCode(200)
  resetPassword(@Param('token') token: string, @Body() body: ResetPasswordDto): Promise<MessageResponse> {
    return this.auth.resetPassword(token, body.password);
  }

  @Delete('delete-account')
  @HttpCode(200)
  async deleteAccount(
    @CurrentUser() user: SessionUser,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    const answer = await this.auth.deleteAccount(user.id);
    await endSession(request);
    response.clearCookie(SESSION_COOKIE, { path: '/' });
    return answer;
  }
}
