import { nanoid } from '@reduxjs/toolkit';

import { guestIdAssigned } from '../../core/prefs';
import type { AppDispatch, RootState } from '../../app/store';
import { walletApi } from '../../core/walletApi';
import { chatApi, HISTORY_PAGE_SIZE, type ChatButton, type ChatIdentity, type HistoryKind, type UploadKind } from './chatApi';
import { outgoingText } from './chatRules';
import { canLoadHistory, mediaQueued, mediaRemoved, mediaResent, olderSkip } from './chatSlice';
import type { SocketAuth } from './socket';

/** Who is chatting: the conversation's owner key, the body fields, the socket's room id and auth. */
export interface ChatSession {
  kind: 'player' | 'guest';
  owner: string;
  identity: ChatIdentity;
  roomId: string;
  auth: SocketAuth;
  /** The player's name, shown to staff. */
  name?: string;
}

/** A player needs their id (from the wallet) and token; a visitor their guest id. Null until both are known. */
export function chatSessionOf(token: string | null, player: { _id: string; name?: string } | null | undefined, guestId: string | null): ChatSession | null {
  if (token) {
    if (!player?._id) return null;
    return { kind: 'player', owner: `player:${player._id}`, identity: { userId: player._id }, roomId: player._id, auth: { token }, name: player.name };
  }
  if (!guestId) return null;
  return { kind: 'guest', owner: `guest:${guestId}`, identity: { guestId }, roomId: guestId, auth: { guestId } };
}

const selectWallet = walletApi.endpoints.getWallet.select();

export function selectChatSession(state: RootState): ChatSession | null {
  // The root state's cache type lists only the base API's tags, not the ones features add.
  const profile = selectWallet(state as unknown as Parameters<typeof selectWallet>[0]).data?.profile;
  return chatSessionOf(state.session.token, profile, state.prefs.guestId);
}

type Thunk<R> = (dispatch: AppDispatch, getState: () => RootState) => R;

/** A visitor without a guest id gets one from the server, kept on the device (prefs.guestId). False: none came. */
export const ensureGuestId = (): Thunk<Promise<boolean>> => async (dispatch, getState) => {
  const state = getState();
  if (state.session.token || state.prefs.guestId) return true;
  const answer = await dispatch(chatApi.endpoints.createChatGuest.initiate(undefined, { track: false }));
  if (!answer.data?.guestId) return false;
  dispatch(guestIdAssigned(answer.data.guestId));
  return true;
};

/**
 * Loads a history page: the newest (kind latest or refresh) or the next older one (skip = what is held). A
 * player's newest-page call also names the device's guest id, so the server adopts what they said as a guest.
 */
export const loadHistory =
  (kind: HistoryKind) =>
  (dispatch: AppDispatch, getState: () => RootState) => {
    const state = getState();
    const session = selectChatSession(state);
    if (!session || !canLoadHistory(state.chat, kind)) return null;
    const adopt = session.kind === 'player' && kind !== 'older' && state.prefs.guestId ? { guestId: state.prefs.guestId } : {};
    return dispatch(
      chatApi.endpoints.chatHistory.initiate(
        { ...session.identity, ...adopt, kind, limit: HISTORY_PAGE_SIZE, skip: kind === 'older' ? olderSkip(state.chat) : 0 },
        { track: false },
      ),
    );
  };

function outgoing(state: RootState, session: ChatSession) {
  return { ...session.identity, ...(session.name ? { name: session.name } : {}), locale: state.prefs.locale };
}

/** Sends typed text (trimmed, capped at 2000; blank is ignored and sends nothing). */
export const sendText =
  (raw: string) =>
  (dispatch: AppDispatch, getState: () => RootState) => {
    const message = outgoingText(raw);
    const session = selectChatSession(getState());
    if (message === null || !session) return null;
    return dispatch(
      chatApi.endpoints.sendChatMessage.initiate({ ...outgoing(getState(), session), message, message_type: 'text' }, { track: false }),
    );
  };

/** A tapped postback button or quick reply: the customer's message shows its title, the server gets its code. */
export const sendPostback =
  (button: ChatButton) =>
  (dispatch: AppDispatch, getState: () => RootState) => {
    const session = selectChatSession(getState());
    if (!session) return null;
    return dispatch(
      chatApi.endpoints.sendChatMessage.initiate(
        { ...outgoing(getState(), session), message: button.title, message_type: 'postback', payload: { payload: button.payload } },
        { track: false },
      ),
    );
  };

/** The picked files of local media messages, kept for a resend after a failed upload (not state: not serializable). */
const files = new Map<string, File>();

/** Runs what a local media message's machine asks for next: the upload, then the send. */
const advanceMedia =
  (localId: string): Thunk<Promise<void>> =>
  async (dispatch, getState) => {
    const current = () => getState().chat.outbox.find((item) => item.localId === localId);
    let item = current();
    const session = selectChatSession(getState());
    if (!item || !session) return;
    if (item.machine.status === 'uploading_file' && item.machine.requestId === null) {
      const file = files.get(localId);
      if (!file) return;
      await dispatch(chatApi.endpoints.uploadChatMedia.initiate({ ...session.identity, localId, kind: item.kind, file }, { track: false }));
      item = current();
    }
    if (item?.machine.status === 'sending' && item.machine.requestId === null) {
      const { fileName, kind } = item;
      await dispatch(
        chatApi.endpoints.sendChatMessage.initiate(
          {
            ...outgoing(getState(), session),
            localId,
            message: fileName,
            message_type: 'media',
            payload: { message: fileName, url: true, fileType: kind, filePath: item.machine.filePath },
          },
          { track: false },
        ),
      );
      item = current();
    }
    if (!item || item.machine.status === 'succeed') files.delete(localId);
  };

/** A checked attachment (chatRules.checkAttachment) becomes a local media message and goes up. */
export const sendMedia =
  (file: File, kind: UploadKind): Thunk<Promise<string>> =>
  async (dispatch) => {
    const localId = nanoid();
    files.set(localId, file);
    dispatch(mediaQueued({ localId, fileName: file.name, kind, size: file.size, createdAt: new Date().toISOString() }));
    await dispatch(advanceMedia(localId));
    return localId;
  };

export const resendMedia =
  (localId: string): Thunk<Promise<void>> =>
  async (dispatch) => {
    dispatch(mediaResent({ localId }));
    await dispatch(advanceMedia(localId));
  };

export const removeMedia =
  (localId: string): Thunk<void> =>
  (dispatch, getState) => {
    dispatch(mediaRemoved({ localId }));
    if (!getState().chat.outbox.some((item) => item.localId === localId)) files.delete(localId);
  };

/** PUT /api/chat/read-customer/ for the staff and bot messages the player has seen. */
export const markRead =
  (ids: string[]) =>
  (dispatch: AppDispatch, getState: () => RootState) => {
    const session = selectChatSession(getState());
    if (!session || ids.length === 0) return null;
    return dispatch(chatApi.endpoints.markChatRead.initiate({ ...session.identity, ids }, { track: false }));
  };
