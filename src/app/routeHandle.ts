/**
 * Route handle: whether the layout pads the content below the top bar (spec §2 'top offset'). A leaf module so the
 * router (which declares the handles) and the layouts (which read them, useTopOffset) share it without importing
 * each other.
 */
export interface RouteHandle {
  topOffset?: boolean;
}
