export { HttpClient, HTTP_DEFAULTS, adapterClient, type AdapterHttpSettings, type HttpAnswer, type HttpCall, type HttpClientOptions, type LogSink } from './client';
export { CircuitBreaker, CircuitRegistry, BREAKER_DEFAULTS, circuitGauge, circuitsOf, type BreakerOptions, type CircuitSnapshot, type CircuitState } from './breaker';
export { ProviderCallError, ProviderTimeoutError, ProviderUnavailable } from './errors';
export { bahtToSatang } from './baht';
export { maskAccount, maskFields, maskName, redactSecrets, type MaskRule } from './mask';
