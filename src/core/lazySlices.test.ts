import { injectSlice, provideSliceInjector, type LazySlice } from './lazySlices';

describe('lazy slices (core/lazySlices.ts)', () => {
  it('hands a slice injected before the store exists to the store once it provides its injector, then injects at once', () => {
    const early: LazySlice = { reducerPath: 'early', reducer: (state = 1) => state };
    const late: LazySlice = { reducerPath: 'late', reducer: (state = 2) => state };
    const injected: string[] = [];
    injectSlice(early);
    expect(injected).toEqual([]);
    provideSliceInjector((slice) => injected.push(slice.reducerPath));
    expect(injected).toEqual(['early']);
    injectSlice(late);
    expect(injected).toEqual(['early', 'late']);
  });
});
