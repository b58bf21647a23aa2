import type {
  LoginRequest,
  SignupRequest,
  ForgotPasswordRequest,
  ResetPasswordRequest,
  VerifyEmailPasswordRequest,
} from '@botsmith/contract';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, Matches, MaxLength } from 'class-validator';
import { PASSWORD_HINT, PASSWORD_PATTERN } from '../../common/constants.js';

const lowercase = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/** The password rule (docs/product.md#field-rules), with its hint as the message (signup and reset). */
function NewPassword(): PropertyDecorator {
  return (target, property) => {
    IsString({ message: 'Password is required.' })(target, property);
    MaxLength(256, { message: 'Password must be at most 256 characters.' })(target, property);
    Matches(PASSWORD_PATTERN, { message: PASSWORD_HINT })(target, property);
  };
}

export class LoginDto implements LoginRequest {
  @Transform(lowercase)
  @IsEmail({}, { message: 'Please enter a valid email address.' })
  @MaxLength(254)
  email!: string;

  @IsString({ message: 'Password is required.' })
  @MaxLength(256)
  password!: string;
}

export class SignupDto implements SignupRequest {
  @Transform(lowercase)
  @IsEmail({}, { message: 'Please enter a valid email address.' })
  @MaxLength(254, { message: 'Email must be at most 254 characters.' })
  email!: string;

  @NewPassword()
  password!: string;
}

export class ForgotPasswordDto implements ForgotPasswordRequest {
  @Transform(lowercase)
  @IsEmail({}, { message: 'Please enter a valid email address.' })
  @MaxLength(254, { message: 'Email must be at most 254 characters.' })
  email!: string;
}

export class ResetPasswordDto implements ResetPasswordRequest {
  @NewPassword()
  password!: string;
}

/** The password step of a verification link opened in another browser than the signup's. */
export class VerifyEmailPasswordDto implements VerifyEmailPasswordRequest {
  // Listed in reverse: decorators apply bottom-up, and the first registered message is the one shown.
  @MaxLength(256, { message: 'Password must be at most 256 characters.' })
  @IsString({ message: 'Password is required.' })
  password!: string;
}

/** `{message}`: the contract's answer of the auth calls (a response, so not a class here). */
export type { MessageResponse } from '@botsmith/contract';
