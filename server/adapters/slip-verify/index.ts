export * from './types';
export { SlipVerifierSimulator, MemoryTransferBook, type TransferBook, type SlipVerifierSimOptions } from './simulator';
export { EasySlipVerifier, EASYSLIP_BASE_URL, EASYSLIP_ERRORS, type EasySlipOptions } from './easyslip';
export { SlipOkVerifier, SLIPOK_BASE_URL, SLIPOK_ERRORS, type SlipOkOptions } from './slipok';
