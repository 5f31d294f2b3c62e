import { readFileSync } from 'node:fs';
import { Joi, backingEnv, commonEnv, csvList, loadConfig, metricsPort, urlOf } from '@fieldhouse/config';

/** The identity database (users, tokens, sessions, outbox); created if missing by `migrate`. */
export const identityDatabaseUrl = urlOf('postgres', 'postgresql').default(
  'postgres://postgres@127.0.0.1:5432/fieldhouse_identity',
);

/** OpenStreetMap's standard tiles: the documented default of the console map. */
const OSM_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
/** The attribution OpenStreetMap asks for (https://www.openstreetmap.org/copyright). */
const OSM_ATTRIBUTION = '© OpenStreetMap contributors';
const OSM_ATTRIBUTION_URL = 'https://www.openstreetmap.org/copyright';

/**
 * A tile URL template as MapLibre takes it: http(s), with `{z}`, `{x}` and `{y}`, or empty.
 * Throws (a configuration error naming MAP_TILE_URL) otherwise.
 */
function checkTileUrl(v: string): string {
  if (v === '') return v;
  let url: URL | undefined;
  try {
    url = new URL(v.replace(/\{[a-z-]+\}/g, '0'));
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new Error('must be an http or https URL template');
  if (!['{z}', '{x}', '{y}'].every((p) => v.includes(p)))
    throw new Error('must hold {z}, {x} and {y} (an XYZ tile URL)');
  return v;
}

const schema = Joi.object({
  ...commonEnv,
  PORT: Joi.number().port().default(8080),
  /** Internal port of `/metrics` (the public port answers it 404). */
  METRICS_PORT: metricsPort(9080),
  /** Identity database (users, tokens, sessions, outbox). Created if missing. */
  DATABASE_URL: identityDatabaseUrl,
  ...backingEnv,
  COLLECTION_URL: urlOf('http', 'https').default('http://127.0.0.1:8081'),
  POLLS_URL: urlOf('http', 'https').default('http://127.0.0.1:8082'),
  EVENTS_URL: urlOf('http', 'https').default('http://127.0.0.1:8083'),
  /** Longest wait for an upstream answer before 504 (ms). */
  UPSTREAM_TIMEOUT_MS: Joi.number().integer().min(100).default(30_000),
  /** Largest request body forwarded to a service (by Content-Length); services apply their own limits too. */
  PROXY_BODY_LIMIT: Joi.string().default('20mb'),
  /**
   * Caps on open live streams (SSE) per gateway replica (docs/identity.md, "Live streams"): per
   * client address (a venue behind one NAT shares it), per signed-in user, and in all.
   */
  STREAMS_PER_ADDRESS: Joi.number().integer().min(1).default(500),
  STREAMS_PER_USER: Joi.number().integer().min(1).default(20),
  STREAMS_MAX: Joi.number().integer().min(1).default(20_000),
  /** Snapshot writes per second to the clients of shared live streams (spacing of pushes). */
  STREAM_WRITES_PER_SECOND: Joi.number().integer().min(100).default(10_000),
  /** PEM of the EC P-256 private key that signs internal JWTs, or a path in the _FILE variant. */
  INTERNAL_JWT_PRIVATE_KEY: Joi.string(),
  INTERNAL_JWT_PRIVATE_KEY_FILE: Joi.string(),
  INTERNAL_JWT_ISSUER: Joi.string().default('fieldhouse-gateway'),
  INTERNAL_JWT_TTL_SECONDS: Joi.number().integer().min(5).max(60).default(30),
  /** PEM public keys published in the JWKS besides the signing key's (rotation), or empty. */
  INTERNAL_JWT_EXTRA_PUBLIC_KEYS: Joi.string().allow('').default(''),
  REGISTRATION_ENABLED: Joi.boolean().default(true),
  BCRYPT_ROUNDS: Joi.number().integer().min(12).max(16).default(12),
  /** Personal access tokens expire after this many minutes; 0 means never (spec 5.4). */
  TOKEN_EXPIRATION_MINUTES: Joi.number().integer().min(0).default(0),
  SESSION_LIFETIME_MINUTES: Joi.number().integer().min(1).default(120),
  /** Seconds a verified token stays in memory (revocation evicts it on every replica); 0 disables. */
  TOKEN_CACHE_SECONDS: Joi.number().integer().min(0).max(300).default(10),
  SESSION_COOKIE: Joi.string().default('fieldhouse_session'),
  /** Mark cookies `Secure` (HTTPS only). Default: on in production. */
  COOKIE_SECURE: Joi.boolean(),
  /** Origins allowed by CORS, comma-separated; only these get credentials. */
  CORS_ORIGINS: csvList.default([]),
  /**
   * Origins the console may load images and data from besides its own, comma-separated: the
   * object storage's public endpoint when photos are served from it (`BLOB_STORE=s3`), a map
   * tile server. Added to the Content-Security-Policy's `img-src` and `connect-src`.
   */
  CONTENT_ORIGINS: csvList.default([]),
  /** Reverse proxies in front of the gateway (Express `trust proxy`): a number of hops or a list of addresses. */
  /** `true` (every hop) is refused: any client could then pick its address (docs/identity.md). */
  TRUST_PROXY: Joi.alternatives(Joi.number().integer().min(0), Joi.string().invalid('true')).default(
    'loopback',
  ),
  /** Prefix of the gateway's Redis keys and channels (rate-limit counters, token revocations). */
  REDIS_PREFIX: Joi.string().allow('').default('fieldhouse:'),
  RATE_LIMIT_WINDOW_SECONDS: Joi.number().integer().min(1).default(60),
  /** Requests per window per client IP, before authentication. */
  RATE_LIMIT_IP: Joi.number().integer().min(1).default(600),
  /** Requests per window per signed-in user. */
  RATE_LIMIT_USER: Joi.number().integer().min(1).default(1200),
  /** Failed logins per window per (IP, e-mail). */
  RATE_LIMIT_LOGIN: Joi.number().integer().min(1).default(5),
  /** Failed logins of one account (any address) before its logins are slowed down (docs/identity.md). */
  LOGIN_ACCOUNT_FAILURES: Joi.number().integer().min(1).default(5),
  /** An account's failures are forgotten this many seconds after its last one. */
  LOGIN_ACCOUNT_WINDOW_SECONDS: Joi.number().integer().min(1).default(900),
  /** First delay once LOGIN_ACCOUNT_FAILURES is reached (s); doubles with each further failure. */
  LOGIN_BACKOFF_BASE_SECONDS: Joi.number().integer().min(1).default(1),
  /** Longest delay between two attempts on a throttled account (s). */
  LOGIN_BACKOFF_MAX_SECONDS: Joi.number().integer().min(1).default(300),
  /** Days an address that signed in stays exempt from its account's throttle (0: none is). */
  LOGIN_KNOWN_ADDRESS_DAYS: Joi.number().integer().min(0).default(30),
  /**
   * Write-behind interval of the per-IP and per-user counters, in ms (0: every request waits
   * for Redis, exact across replicas). See docs/identity.md, "Rate limits".
   */
  RATE_LIMIT_SYNC_MS: Joi.number().integer().min(0).max(10_000).default(100),
  /**
   * The built web console (`console/dist`) served at `/`, or empty for none (docs/console.md).
   * `npm start` builds the console when it is missing or stale and sets this.
   */
  CONSOLE_DIR: Joi.string().allow('').default(''),
  /** SMTP relay of the account e-mails (password reset, e-mail verification): `smtp://user:pass@host:port`. */
  SMTP_URL: urlOf('smtp', 'smtps').default('smtp://127.0.0.1:1025'),
  /** Sender of the account e-mails. */
  MAIL_FROM: Joi.string().default('Fieldhouse <no-reply@fieldhouse.local>'),
  /** The console's public base URL: the links in account e-mails point there (no trailing slash kept). */
  PUBLIC_URL: urlOf('http', 'https')
    .default('http://127.0.0.1:8080')
    .custom((v: string) => v.replace(/\/+$/, '')),
  /** Password reset requests per e-mail typed, and verification e-mails per user, per window (docs/identity.md). */
  ACCOUNT_EMAILS_PER_ADDRESS: Joi.number().integer().min(1).default(3),
  /** Password reset requests per client address per window. */
  ACCOUNT_EMAILS_PER_IP: Joi.number().integer().min(1).default(20),
  /** Window of the two limits above (s). */
  ACCOUNT_EMAILS_WINDOW_SECONDS: Joi.number().integer().min(1).default(900),
  /**
   * The console map's tile server (docs/console.md, "Map tiles"): an XYZ raster URL template with
   * `{z}`, `{x}` and `{y}`, served to the console by `GET /api/v1/console/settings`; its origin
   * joins the Content-Security-Policy's `img-src` and `connect-src`. Default: OpenStreetMap's
   * standard tiles, whose usage policy (https://operations.osmfoundation.org/policies/tiles/)
   * asks heavy users for their own server. Empty: no tiles, the points on a plain panel.
   */
  MAP_TILE_URL: Joi.string()
    .allow('')
    .custom((v: string) => checkTileUrl(v))
    .default(OSM_TILE_URL),
  /** The tiles' attribution shown on the map (plain text); empty for none. */
  MAP_TILE_ATTRIBUTION: Joi.string().allow('').max(300).default(OSM_ATTRIBUTION),
  /** Where the attribution links to (http or https), or empty for no link. */
  MAP_TILE_ATTRIBUTION_URL: Joi.alternatives(urlOf('http', 'https'), Joi.string().valid('')).default(
    OSM_ATTRIBUTION_URL,
  ),
}).oxor('INTERNAL_JWT_PRIVATE_KEY', 'INTERNAL_JWT_PRIVATE_KEY_FILE');

/** The gateway's environment after validation (names and defaults as in the schema above). */
interface GatewayVars {
  NODE_ENV: string;
  LOG_LEVEL: string;
  HOST: string;
  METRICS_HOST: string;
  BODY_LIMIT: string;
  SHUTDOWN_TIMEOUT_MS: number;
  PORT: number;
  METRICS_PORT: number;
  DATABASE_URL: string;
  REDIS_URL: string;
  AMQP_URL: string;
  AMQP_PREFIX: string;
  COLLECTION_URL: string;
  POLLS_URL: string;
  EVENTS_URL: string;
  UPSTREAM_TIMEOUT_MS: number;
  PROXY_BODY_LIMIT: string;
  STREAMS_PER_ADDRESS: number;
  STREAMS_PER_USER: number;
  STREAMS_MAX: number;
  STREAM_WRITES_PER_SECOND: number;
  INTERNAL_JWT_PRIVATE_KEY?: string;
  INTERNAL_JWT_PRIVATE_KEY_FILE?: string;
  INTERNAL_JWT_ISSUER: string;
  INTERNAL_JWT_TTL_SECONDS: number;
  INTERNAL_JWT_EXTRA_PUBLIC_KEYS: string;
  REGISTRATION_ENABLED: boolean;
  BCRYPT_ROUNDS: number;
  TOKEN_EXPIRATION_MINUTES: number;
  SESSION_LIFETIME_MINUTES: number;
  TOKEN_CACHE_SECONDS: number;
  SESSION_COOKIE: string;
  COOKIE_SECURE?: boolean;
  CORS_ORIGINS: string[];
  CONTENT_ORIGINS: string[];
  TRUST_PROXY: number | string;
  REDIS_PREFIX: string;
  RATE_LIMIT_WINDOW_SECONDS: number;
  RATE_LIMIT_IP: number;
  RATE_LIMIT_USER: number;
  RATE_LIMIT_LOGIN: number;
  LOGIN_ACCOUNT_FAILURES: number;
  LOGIN_ACCOUNT_WINDOW_SECONDS: number;
  LOGIN_BACKOFF_BASE_SECONDS: number;
  LOGIN_BACKOFF_MAX_SECONDS: number;
  LOGIN_KNOWN_ADDRESS_DAYS: number;
  RATE_LIMIT_SYNC_MS: number;
  CONSOLE_DIR: string;
  SMTP_URL: string;
  MAIL_FROM: string;
  PUBLIC_URL: string;
  ACCOUNT_EMAILS_PER_ADDRESS: number;
  ACCOUNT_EMAILS_PER_IP: number;
  ACCOUNT_EMAILS_WINDOW_SECONDS: number;
  MAP_TILE_URL: string;
  MAP_TILE_ATTRIBUTION: string;
  MAP_TILE_ATTRIBUTION_URL: string;
}

export type GatewayConfig = GatewayVars & { privateKeyPem: string; cookieSecure: boolean };

/**
 * Reads and validates the gateway's environment (every variable and default is listed in the
 * README). Fails fast naming each wrong variable.
 */
export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const cfg = loadConfig(schema as Joi.ObjectSchema<GatewayVars>, env);
  const pem =
    cfg.INTERNAL_JWT_PRIVATE_KEY?.replaceAll('\\n', '\n') ??
    (cfg.INTERNAL_JWT_PRIVATE_KEY_FILE ? readFileSync(cfg.INTERNAL_JWT_PRIVATE_KEY_FILE, 'utf8') : undefined);
  if (!pem) {
    throw new Error(
      'Invalid configuration: INTERNAL_JWT_PRIVATE_KEY or INTERNAL_JWT_PRIVATE_KEY_FILE must be set ' +
        '(an EC P-256 private key in PEM; `npm start` generates one in .local/keys).',
    );
  }
  return { ...cfg, privateKeyPem: pem, cookieSecure: cfg.COOKIE_SECURE ?? cfg.NODE_ENV === 'production' };
}
