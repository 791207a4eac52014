import { api } from '../../core/api';

/** Spec §3 invite list item (../notes/invite-wheel-contract.md): an invitee, what the inviter earned from them (baht), when they registered. */
export interface InviteItem {
  from: { name: string };
  amount: number;
  createdAt: string;
}

/** POST /api/invite: one page of invitees, newest first, with the counts of those who deposited and those who did not. */
export interface InvitePage {
  invites: InviteItem[];
  total: number;
  success: number;
  fail: number;
}

/** Spec §9: the invite list shows 10 a page. */
export const INVITE_PAGE_SIZE = 10;

export const inviteApi = api.enhanceEndpoints({ addTagTypes: ['Invite'] }).injectEndpoints({
  endpoints: (build) => ({
    getInvites: build.query<InvitePage, { page: number; limit?: number }>({
      query: ({ page, limit = INVITE_PAGE_SIZE }) => ({ url: '/api/invite', method: 'POST', body: { page, limit } }),
      providesTags: ['Invite'],
      // Spec §8: a failed invite list is swallowed and its loader hidden.
      extraOptions: { silent: true },
    }),
  }),
});

export const { useGetInvitesQuery } = inviteApi;
