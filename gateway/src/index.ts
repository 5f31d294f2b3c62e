export { composeGateway, type Gateway } from './compose.ts';
export { loadGatewayConfig, type GatewayConfig } from './config.ts';
export { migrations } from './migrations/index.ts';
export { loadSigningKey, type SigningKey } from './proxy/signing-key.ts';
export { gatewayDocument } from './docs/document.ts';
export { withGatewayAnswers } from './docs/gateway-answers.ts';
