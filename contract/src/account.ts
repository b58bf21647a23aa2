/** The password rule, checked by the sign-up and reset forms and again by the server. */
export const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*[!@#$%^&*])[A-Za-z\d!@#$%^&*]{8,}$/;
export const PASSWORD_HINT =
  'Minimum 8 characters, including one uppercase letter, one lowercase letter, and one special character';
