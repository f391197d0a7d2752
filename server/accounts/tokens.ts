import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { z } from 'zod';

/** The access-token payload as clients read it (docs/rules/accounts-and-codes.md#10-sessions). */
export const AccessClaims = z.object({
  user_id: z.number().int().positive(),
  is_staff: z.boolean(),
  is_active: z.boolean(),
  name: z.string(),
  phone: z.string().nullable(),
  exp: z.number(),
  token_type: z.literal('access'),
  /** The session it was issued for (its refresh token's jti): it is refused once that session has ended. */
  sid: z.uuid(),
});
export type AccessClaims = z.infer<typeof AccessClaims>;

const RefreshClaims = z.object({ user_id: z.number().int().positive(), jti: z.uuid(), exp: z.number(), token_type: z.literal('refresh') });
export type RefreshClaims = z.infer<typeof RefreshClaims>;

export type TokenUser = { id: number; is_staff: boolean; is_active: boolean; name: string; phone: string | null };

export class Tokens {
  private readonly key: Uint8Array;
  readonly accessTtlSec: number;
  readonly refreshTtlSec: number;
  constructor(secret: string, accessTtlSec: number, refreshTtlSec: number) {
    this.accessTtlSec = accessTtlSec;
    this.refreshTtlSec = refreshTtlSec;
    this.key = new TextEncoder().encode(`jwt:${secret}`);
  }

  /** An access token of the session `sid` (the jti of its refresh token). */
  async signAccess(u: TokenUser, sid: string): Promise<string> {
    return new SignJWT({
      user_id: u.id,
      is_staff: u.is_staff,
      is_active: u.is_active,
      name: u.name,
      phone: u.phone,
      token_type: 'access',
      sid,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.accessTtlSec)
      .sign(this.key);
  }

  async signRefresh(userId: number): Promise<{ token: string; jti: string; expiresAt: Date }> {
    const jti = randomUUID();
    const exp = Math.floor(Date.now() / 1000) + this.refreshTtlSec;
    const token = await new SignJWT({ user_id: userId, jti, token_type: 'refresh' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, jti, expiresAt: new Date(exp * 1000) };
  }

  /**
   * Verified signatures are remembered until the token expires, which spares the signature check on every API call
   * of a page. It says only that the token is ours and unchanged: whether its session is still live is asked of the
   * database on every request (server/http/auth.ts, docs/rules/accounts-and-codes.md#10-sessions).
   */
  private readonly verified = new Map<string, AccessClaims>();

  async verifyAccess(token: string): Promise<AccessClaims | null> {
    const hit = this.verified.get(token);
    if (hit) {
      if (hit.exp * 1000 > Date.now()) return hit;
      this.verified.delete(token);
    }
    const claims = await this.verify(token, AccessClaims);
    if (claims) {
      if (this.verified.size >= 10_000) this.verified.clear();
      this.verified.set(token, claims);
    }
    return claims;
  }
  verifyRefresh(token: string): Promise<RefreshClaims | null> {
    return this.verify(token, RefreshClaims);
  }

  private async verify<T>(token: string, schema: z.ZodType<T>): Promise<T | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const parsed = schema.safeParse(payload);
      return parsed.success ? parsed.data : null;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return null;
      throw err;
    }
  }
}
