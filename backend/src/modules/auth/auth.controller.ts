import { Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { Public } from '../../common/public.decorator.js';
import type { MessageResponse } from './auth.dto.js';
import { endSession } from './sessions.js';
import { LoginGuard } from './login.guard.js';

@Controller('auth')
export class AuthController {
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
  async logout(@Req() request: Request): Promise<MessageResponse> {
    await endSession(request);
    return { message: 'Logged out.' };
  }
}
