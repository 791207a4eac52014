export * from './types';
export { SlipVerifierSimulator, MemoryTransferBook, type TransferBook, type SlipVerifierSimOptions } from './simulator';
