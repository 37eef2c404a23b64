/** UI slice: the small-screen navigation menu, open or closed, docs/screens.md (Shell and sign-in). */
import type { StateCreator } from 'zustand';

export interface UiSlice {
  mobileMenuOpen: boolean;
  setMobileMenuOpen(open: boolean): void;
}

export const createUiSlice: StateCreator<UiSlice, [], [], UiSlice> = (set) => ({
  mobileMenuOpen: false,
  setMobileMenuOpen(open) {
    set({ mobileMenuOpen: open });
  },
});
