import { api } from '../../core/api';

export interface LoginRequest {
  username: string;
  password: string;
  /** Keep the token across browser restarts (localStorage) instead of this tab only (sessionStorage). */
  remember: boolean;
}

export interface LoginResponse {
  token: string;
}

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginRequest>({
      query: ({ username, password }) => ({ url: '/api/login', method: 'POST', body: { username, password } }),
      // Login failures show in the form's error line, not as a toast.
      extraOptions: { silent: true },
    }),
    /** Revokes the session's token on the server (the Bearer token of the stored session). */
    logout: build.mutation<void, void>({
      query: () => ({ url: '/api/logout', method: 'POST' }),
      // The caller ends the local session whatever the server says, and decides where the player goes: an
      // answer (401 for a token already dead, 'gone') must not redirect or toast from here.
      extraOptions: { raw: true },
    }),
  }),
});

export const { useLoginMutation, useLogoutMutation } = sessionApi;
