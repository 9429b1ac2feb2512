/**
 * The size every step node is drawn at on the canvas, in pixels. Its own module so the editor
 * can place steps without loading `layout.ts` (and dagre) until "Tidy up".
 */
export const NODE_WIDTH = 260;
export const NODE_HEIGHT = 84;
