export * from './types';
export { GiftRedeemerSimulator, type GiftRedeemerSimOptions } from './simulator';
