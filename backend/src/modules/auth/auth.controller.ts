import { ApiBody, ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, JSON_BODY, RATE_LIMITED, SAME_SITE, SIGNED_IN } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { Public } from '../../common/public.decorator.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { AuthThrottle } from './auth-throttle.js';
import { AuthService } from './auth.service.js';
import {
  ForgotPasswordDto,
  LoginDto,
  ResetPasswordDto,
  SignupDto,
  VerifyEmailPasswordDto,
  type MessageResponse,
} from './auth.dto.js';
import { LoginGuard } from './login.guard.js';
import { endSession, SESSION_COOKIE, startSession } from './sessions.js';
import { rememberSignupBrowser, signupBrowserOf } from './signup-browser.js';

const VERIFIED_MESSAGE = 'Your email has been verified. You are now signed in.';

@ApiTags('Auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly throttle: AuthThrottle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Post('signup')
  @ApiOperation({ summary: 'Signs up: mails a verification link (the same answer whether or not the e-mail is known)' })
  @ApiAnswer(201, 'The link is mailed.')
  @ApiErrors(SAME_SITE, JSON_BODY, RATE_LIMITED)
  @HttpCode(201)
  async signup(
    @Body() body: SignupDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    await this.throttle.hitAccountRequest(request.ip);
    await this.throttle.hitAccountMail(body.email);
    const browser = rememberSignupBrowser(request, response, this.config);
    return this.auth.signup(body.email, body.password, browser);
  }

  /**
   * Spends the mailed link and signs the owner in on a fresh session id, when this browser
   * submitted the signup; elsewhere a 409 asks for the signup's password (the POST below).
   */
  @Public()
  @Get('verify-email/:token')
  @ApiOperation({ summary: "Spends a verification link opened in the signup's browser, and signs the owner in" })
  @ApiAnswer(200, 'Verified and signed in (sets the session cookie).')
  @ApiErrors({ 400: ['INVALID_TOKEN'], 409: ['PASSWORD_CONFIRMATION_REQUIRED'] })
  async verifyEmail(@Param('token') token: string, @Req() request: Request): Promise<MessageResponse> {
    const user = await this.auth.verifyEmail(token, signupBrowserOf(request));
    await startSession(request, user);
    return { message: VERIFIED_MESSAGE };
  }

  @Public()
  @Post('verify-email/:token')
  @ApiOperation({ summary: "Spends a verification link opened in another browser, with the signup's password" })
  @ApiAnswer(200, 'Verified and signed in (sets the session cookie).')
  @ApiErrors(SAME_SITE, JSON_BODY, RATE_LIMITED, { 400: ['INVALID_TOKEN', 'INVALID_CREDENTIALS'] })
  @HttpCode(200)
  async verifyEmailWithPassword(
    @Param('token') token: string,
    @Body() body: VerifyEmailPasswordDto,
    @Req() request: Request,
  ): Promise<MessageResponse> {
    const user = await this.auth.verifyEmailWithPassword(token, body.password, request.ip);
    await startSession(request, user);
    return { message: VERIFIED_MESSAGE };
  }

  @Public()
  @UseGuards(LoginGuard)
  @Post('login')
  @ApiOperation({ summary: 'Signs in: sets the session cookie' })
  @ApiBody({ type: LoginDto })
  @ApiAnswer(200, 'Signed in (sets the session cookie).')
  @ApiErrors(SAME_SITE, JSON_BODY, RATE_LIMITED, { 401: ['INVALID_CREDENTIALS'], 403: ['EMAIL_NOT_VERIFIED'] })
  @HttpCode(200)
  login(): MessageResponse {
    return { message: 'Logged in successfully.' };
  }

  @Public()
  @Post('logout')
  @ApiOperation({ summary: 'Signs out: ends the session and clears its cookie' })
  @ApiAnswer(200, 'Signed out.')
  @ApiErrors(SAME_SITE)
  @HttpCode(200)
  async logout(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<MessageResponse> {
    await endSession(request);
    response.clearCookie(SESSION_COOKIE, { path: '/' });
    return { message: 'Logged out.' };
  }

  @Public()
  @Post('forgot-password')
  @ApiOperation({ summary: 'Mails a password reset link (the same answer whether or not the e-mail is known)' })
  @ApiAnswer(200, 'The link is mailed if the account exists.')
  @ApiErrors(SAME_SITE, JSON_BODY, RATE_LIMITED)
  @HttpCode(200)
  async forgotPassword(@Body() body: ForgotPasswordDto, @Req() request: Request): Promise<MessageResponse> {
    await this.throttle.hitAccountRequest(request.ip);
    await this.throttle.hitAccountMail(body.email);
    return this.auth.forgotPassword(body.email);
  }

  @Public()
  @Post('reset-password/:token')
  @ApiOperation({ summary: 'Sets a new password with a mailed reset link' })
  @ApiAnswer(200, 'The password is changed.')
  @ApiErrors(SAME_SITE, JSON_BODY, RATE_LIMITED, { 400: ['INVALID_TOKEN'] })
  @HttpCode(200)
  async resetPassword(
    @Param('token') token: string,
    @Body() body: ResetPasswordDto,
    @Req() request: Request,
  ): Promise<MessageResponse> {
    await this.throttle.hitAccountRequest(request.ip);
    return this.auth.resetPassword(token, body.password);
  }

  @Delete('delete-account')
  @ApiCookieAuth(SECURITY.session)
  @ApiOperation({ summary: "Deletes the owner's account and signs out" })
  @ApiAnswer(200, 'The account is deleted.')
  @ApiErrors(SIGNED_IN, SAME_SITE)
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
