/** The state map's frame, CSS pixels (docs/screens.md, Shared components: 700 x 420). */
export const MAP_WIDTH = 700;
export const MAP_HEIGHT = 420;
