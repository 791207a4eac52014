export * from './types';
export { PaymentGatewaySimulator, type PaymentGatewaySimOptions } from './simulator';
