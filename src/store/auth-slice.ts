/**
 * Auth slice: the access token (mirrored to localStorage; docs/screens.md, Shell and sign-in) and a
 * one-off notice for the sign-in page (e.g. 'Your session has expired').
 */
import type { StateCreator } from 'zustand';
import { readToken, writeToken } from './token-storage';

export interface AuthSlice {
  /** The access token, or null when signed out. */
  token: string | null;
  /** A message for the sign-in page, or null. */
  notice: string | null;
  /** Stores a token from the sign-in callback and clears any notice. */
  signIn(token: string): void;
  /** Removes the token (logout). */
  signOut(): void;
  /** Removes the token and leaves `notice` for the sign-in page. */
  expireSession(notice: string): void;
  clearNotice(): void;
}

export const createAuthSlice: StateCreator<AuthSlice, [], [], AuthSlice> = (set) => ({
  token: readToken(),
  notice: null,
  signIn(token) {
    writeToken(token);
    set({ token, notice: null });
  },
  signOut() {
    writeToken(null);
    set({ token: null });
  },
  expireSession(notice) {
    writeToken(null);
    set({ token: null, notice });
  },
  clearNotice() {
    set({ notice: null });
  },
});
