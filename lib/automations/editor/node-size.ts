/**
 * The size every step node is drawn at on the canvas, in pixels. Its own module so the editor
 * can place steps without loading `layout.ts` (and dagre) until "Tidy up".
 */
export const NODE_WIDTH = 260;
export const NODE_HEIGHT = 84;

/**
 * How a fitted view keeps the flow clear of the canvas's corners: a strip at the bottom as tall
 * as the minimap (bottom right) and the zoom buttons (bottom left), so no step is fitted under
 * either; React Flow's padding in pixels.
 */
export const FIT_VIEW_PADDING = { top: "40px", left: "48px", right: "40px", bottom: "136px" } as const;

/** The minimap's size: small enough to leave the canvas to the flow. */
export const MINIMAP_SIZE = { width: 168, height: 108 } as const;
