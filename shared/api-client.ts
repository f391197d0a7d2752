import type { ApiResult, SessionUser } from './api-types.ts';

/**
 * One API client interface, two transports: on the server the upstream API with the user's token
 * (server/ssr/server-api.ts), in the browser /bff with the session cookie and the CSRF header (client/bff-api.ts).
 */
export interface ApiClient {
  get<T>(path: string): Promise<ApiResult<T>>;
  send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<ApiResult<T>>;
  /** A raw image upload (profile picture). */
  upload<T>(path: string, file: Blob): Promise<ApiResult<T>>;
  /** Logs in through the server, which keeps the tokens in its HttpOnly cookie. */
  login(phone: string, password: string): Promise<ApiResult<SessionUser>>;
  logout(): Promise<void>;
  /** The session fields the page may know, and the CSRF token for its forms. */
  session(): Promise<{ user: SessionUser | null; csrf: string }>;
}
