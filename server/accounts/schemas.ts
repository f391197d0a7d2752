import { z } from 'zod';

const text = (max: number) => z.string().trim().max(max);
const password = z.string().min(8, 'api:passwordMin').max(128);

export const LoginBody = z.strictObject({ phone: text(254).min(1), password: z.string().min(1).max(128) });
export const RefreshBody = z.strictObject({ refresh: z.string().min(1).max(2000) });
export const SignupBody = z.strictObject({
  name: text(100).min(1),
  email: text(254).nullish(),
  phone: text(20).nullish(),
  password,
  location: text(100).optional(),
  picture: z.uuid().nullish(),
});
export const IdentifierBody = z.strictObject({ identifier: text(254).min(1, 'api:identifierRequired') });
export const VerifyOtpBody = z.strictObject({ identifier: text(254).min(1, 'api:identifierRequired'), otp: z.string().trim().min(1, 'api:otpRequired').max(10) });
export const ResetBody = z.strictObject({
  identifier: text(254).min(1, 'api:identifierRequired'),
  otp: z.string().trim().min(1, 'api:otpRequired').max(6, 'api:otpMax'),
  new_password: password,
  confirm_password: z.string().max(128),
});
