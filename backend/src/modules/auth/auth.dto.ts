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

export class LoginDto {
  @Transform(lowercase)
  @IsEmail({}, { message: 'Please enter a valid email address.' })
  @MaxLength(254)
  email!: string;

  @IsString({ message: 'Password is required.' })
  @MaxLength(256)
  password!: string;
}

export class SignupDto {
  @Transform(lowercase)
  @IsEmail({}, { message: 'Please enter a valid email address.' })
  @MaxLength(254, { message: 'Email must be at most 254 characters.' })
  email!: string;

  @NewPassword()
  password!: string;
}

export class ForgotPasswordDto {
  @Transform(lowercase)
  @IsEmail({}, { message: 'Please enter a valid email address.' })
  @MaxLength(254, { message: 'Email must be at most 254 characters.' })
  email!: string;
}

export class ResetPasswordDto {
  @NewPassword()
  password!: string;
}

/** The password step of a verification link opened in another browser than the signup's. */
export class VerifyEmailPasswordDto {
  // Listed in reverse: decorators apply bottom-up, and the first registered message is the one shown.
  @MaxLength(256, { message: 'Password must be at most 256 characters.' })
  @IsString({ message: 'Password is required.' })
  password!: string;
}

export class MessageResponse {
  message!: string;
}
