import Joi from 'joi';
import { routeDeclarer } from '@fieldhouse/http';

/** Where the console reads the deployment's settings (under `/api/v1`, answered by the gateway). */
const CONSOLE_SETTINGS_PATH = '/api/v1/console/settings';

/**
 * The console's settings as the gateway serves them: the map's tile server and its attribution
 * (docs/console.md, "Map tiles"). `tile_url` null: no tiles, the points on a plain panel.
 */
export interface ConsoleSettings {
  map: {
    /** An XYZ raster tile URL template (`{z}`, `{x}`, `{y}`), or null for none. */
    tile_url: string | null;
    /** The tiles' attribution, plain text (shown on the map), or null for none. */
    attribution: string | null;
    /** Where the attribution links to, or null for no link. */
    attribution_url: string | null;
  };
}

/** What the settings route serves: the settings, read once from the gateway's configuration. */
export interface ConsoleSettingsContext {
  consoleSettings: ConsoleSettings;
}

/** The console's settings from the gateway's `MAP_TILE_*` variables (an empty one is null). */
export function consoleSettingsOf(c: {
  MAP_TILE_URL: string;
  MAP_TILE_ATTRIBUTION: string;
  MAP_TILE_ATTRIBUTION_URL: string;
}): ConsoleSettings {
  const tiles = c.MAP_TILE_URL || null;
  return {
    map: {
      tile_url: tiles,
      // Without tiles there is nothing to attribute.
      attribution: tiles ? c.MAP_TILE_ATTRIBUTION || null : null,
      attribution_url: tiles && c.MAP_TILE_ATTRIBUTION ? c.MAP_TILE_ATTRIBUTION_URL || null : null,
    },
  };
}

/** The origin of a tile URL template (`https://tile.openstreetmap.org`), for the CSP; null for none. */
export function tileOrigin(tileUrl: string): string | null {
  if (!tileUrl) return null;
  return new URL(tileUrl.replace(/\{[a-z-]+\}/g, '0')).origin;
}

/**
 * GET /api/v1/console/settings: the settings of this deployment the web console needs at run
 * time (today the map's tile server and attribution; gateway variables `MAP_TILE_URL`,
 * `MAP_TILE_ATTRIBUTION`, `MAP_TILE_ATTRIBUTION_URL`). Public (the console reads it before
 * anyone signs in), the same for every caller, cacheable for 5 minutes.
 */
export const consoleSettingsRoute = routeDeclarer<ConsoleSettingsContext>()({
  method: 'get',
  path: CONSOLE_SETTINGS_PATH,
  operationId: 'consoleSettings',
  summary: 'Settings of this deployment for the web console (map tiles)',
  description:
    'The map tile server is an XYZ raster URL template (`{z}`, `{x}`, `{y}`); null when the deployment ' +
    'sets none (the map shows its points on a plain panel). The attribution is plain text, with an ' +
    'optional link. Default: OpenStreetMap’s standard tiles, "© OpenStreetMap contributors".',
  tags: ['console'],
  access: 'public',
  responses: {
    200: {
      description: 'The settings',
      body: Joi.object({
        map: Joi.object({
          tile_url: Joi.string().allow(null).required(),
          attribution: Joi.string().allow(null).required(),
          attribution_url: Joi.string().allow(null).required(),
        }).required(),
      }),
      headers: { 'Cache-Control': { description: '`public, max-age=300`' } },
    },
  },
  handler: (_input, ctx) => ({
    body: ctx.consoleSettings,
    headers: { 'Cache-Control': 'public, max-age=300' },
  }),
});

/**
 * Whether the gateway answers `path` with {@link consoleSettingsRoute} rather than proxying it to
 * the collection service; like Express's router, it ignores case and one trailing slash.
 */
export function isConsoleSettingsPath(path: string): boolean {
  let p = path.toLowerCase();
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p === CONSOLE_SETTINGS_PATH;
}
