import type { Reducer } from '@reduxjs/toolkit';

/**
 * Lazy chunks add their slices to the store's root reducer (RTK's `combineSlices(...).inject`) without importing the
 * store: src/app sits above the features. The store hands its injector over when its module runs (app/store.ts),
 * which is always before a lazy chunk's; a slice injected earlier (a unit test without a store) waits for it.
 */
export interface LazySlice {
  reducerPath: string;
  reducer: Reducer;
}

type Injector = (slice: LazySlice) => void;

let injector: Injector | null = null;
const waiting: LazySlice[] = [];

export function provideSliceInjector(inject: Injector): void {
  injector = inject;
  for (const slice of waiting.splice(0)) inject(slice);
}

export function injectSlice(slice: LazySlice): void {
  if (injector) injector(slice);
  else waiting.push(slice);
}
