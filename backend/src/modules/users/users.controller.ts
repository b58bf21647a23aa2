import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, JSON_BODY, SAME_SITE, SIGNED_IN } from '../../common/openapi/api-errors.decorator.js';
import { ApiAnswer } from '../../common/openapi/schemas.js';
import { SECURITY } from '../../common/openapi/security.js';
import { Body, Controller, Get, Put } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { CurrentUser, type SessionUser } from '../../common/current-user.decorator.js';
import { UpdateSettingsDto, type SettingsResponse } from './users.dto.js';
import { UsersService, type MeResponse } from './users.service.js';

@ApiTags('Account')
@ApiCookieAuth(SECURITY.session)
@Controller('user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('me')
  @ApiOperation({ summary: 'The signed-in owner' })
  @ApiAnswer(200, 'The owner.')
  @ApiErrors(SIGNED_IN)
  async me(@CurrentUser() current: SessionUser): Promise<MeResponse> {
    const user = await this.users.findActiveById(current.id);
    if (!user) throw AppError.unauthorized();
    return this.users.toMe(user);
  }

  /**
   * The account settings: the spend alert (whole dollars per billing period; 0 = no mail), how
   * long visitors' conversations are kept (docs/product.md#retention-and-visitor-privacy), the
   * time zone and the monthly report (docs/product.md#monthly-report).
   */
  @Get('settings')
  @ApiOperation({ summary: "The owner's account settings" })
  @ApiAnswer(200, 'The settings.')
  @ApiErrors(SIGNED_IN)
  settings(@CurrentUser() current: SessionUser): Promise<SettingsResponse> {
    return this.users.settings(current.id);
  }

  @Put('settings')
  @ApiOperation({
    summary:
      "Saves the spend alert, the conversation retention, the name on the owner's replies, the time zone and the monthly report",
    description:
      'Only the fields sent change. `spendAlertDollars`: whole dollars per billing period, 0 = no mail. ' +
      '`conversationRetentionDays`: 30, 90, 365 or null (forever). `agentName`: 1 to 60 characters. ' +
      "`timeZone`: an IANA name the server and the database know, or null for the browser's. " +
      '`monthlyReport`: whether the monthly report mail is sent.',
  })
  @ApiAnswer(200, 'The saved settings.')
  @ApiErrors(SIGNED_IN, SAME_SITE, JSON_BODY)
  updateSettings(@CurrentUser() current: SessionUser, @Body() body: UpdateSettingsDto): Promise<SettingsResponse> {
    return this.users.updateSettings(current.id, body);
  }
}
