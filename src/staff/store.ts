import { configureStore } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';

import { playerSearchPath, playerSearchReducer } from './players/searchSlice';
import { staffApi } from './staffApi';

/**
 * The staff console's own store (never the player's src/app/store.ts): the console's API cache and its flows.
 * StaffApp makes one per mount, so every test and every page load starts empty.
 */
export const makeStaffStore = () =>
  configureStore({
    reducer: { [staffApi.reducerPath]: staffApi.reducer, [playerSearchPath]: playerSearchReducer },
    middleware: (getDefault) => getDefault().concat(staffApi.middleware),
  });

export type StaffStore = ReturnType<typeof makeStaffStore>;
export type StaffState = ReturnType<StaffStore['getState']>;
export type StaffDispatch = StaffStore['dispatch'];

export const useStaffDispatch = useDispatch.withTypes<StaffDispatch>();
export const useStaffSelector = useSelector.withTypes<StaffState>();
