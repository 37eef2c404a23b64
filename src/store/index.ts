/**
 * The app's one zustand store, built from slices (docs/architecture.md). Query results stay out
 * of it: screens keep them in component state; shareable filters live in the URL.
 */
import { create } from 'zustand';
import { createAuthSlice, type AuthSlice } from './auth-slice';
import { createUiSlice, type UiSlice } from './ui-slice';

export type AppState = AuthSlice & UiSlice;

/** `useAppStore((s) => s.token)` in components; `useAppStore.getState()` elsewhere. */
export const useAppStore = create<AppState>()((...args) => ({
  ...createAuthSlice(...args),
  ...createUiSlice(...args),
}));
