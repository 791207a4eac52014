export * from './types';
export { PaymentGatewaySimulator, type PaymentGatewaySimOptions } from './simulator';
export { OpnGateway, OPN_BASE_URL, OPN_SIGNATURE_HEADER, OPN_TIMESTAMP_HEADER, signOpn, verifyOpnSignature, type OpnCharge, type OpnOptions } from './opn';
