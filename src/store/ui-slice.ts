/** UI slice: the small-screen navigation menu, open or closed (product-spec §4). */
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
