import { useEffect, useRef } from 'react';
import 'maplibre-gl/dist/maplibre-gl.css';
import type { GeoJSONSource, Map as MapLibreMap, StyleSpecification } from 'maplibre-gl';
import { useConsoleSettings, type ConsoleSettings } from '../../app/console-settings.ts';
import { usePageScheme } from '../../components/use-page-scheme.ts';
import type { MapPoint } from './map-points.ts';

type MapSettings = ConsoleSettings['map'];

/**
 * The map's style: the deployment's raster tiles (`tile_url`, a runtime setting served by the
 * gateway: docs/console.md, "Map tiles") over a plain background, or the plain background alone
 * when the deployment sets none (the map then makes no request of its own).
 */
const style = (tileUrl: string | null, dark: boolean): StyleSpecification => ({
  version: 8,
  sources: tileUrl ? { tiles: { type: 'raster', tiles: [tileUrl], tileSize: 256, maxzoom: 19 } } : {},
  layers: [
    { id: 'background', type: 'background', paint: { 'background-color': dark ? '#2e3440' : '#e9eef2' } },
    ...(tileUrl ? [{ id: 'tiles', type: 'raster' as const, source: 'tiles' }] : []),
  ],
});

/** The tiles' attribution in the map's corner (plain text from the settings, with its link). */
function Attribution({ map }: { map: MapSettings }) {
  if (!map.tile_url || !map.attribution) return null;
  return (
    <div
      data-testid="map-attribution"
      style={{
        position: 'absolute',
        right: 0,
        bottom: 0,
        padding: '1px 6px',
        fontSize: 12,
        background: 'rgba(255, 255, 255, 0.85)',
        color: '#212529',
        borderTopLeftRadius: 4,
      }}
    >
      {map.attribution_url ? (
        <a href={map.attribution_url} target="_blank" rel="noreferrer" style={{ color: '#1864ab' }}>
          {map.attribution}
        </a>
      ) : (
        map.attribution
      )}
    </div>
  );
}

const featuresOf = (points: MapPoint[]) => ({
  type: 'FeatureCollection' as const,
  features: points.map((p) => ({
    type: 'Feature' as const,
    properties: { submission: p.submissionId },
    geometry: { type: 'Point' as const, coordinates: [p.longitude, p.latitude] },
  })),
});

/**
 * Points on a MapLibre GL map (loaded with the page that shows it), clustered: a cluster is a
 * circle sized by how many points it holds, and a click zooms into it; a click on a point calls
 * `onPointClick` with its submission. The view fits the points; the deployment's tiles (if any)
 * lie under them with their attribution in the corner. `label` names the map region;
 * pages give a list of the points beside it for keyboard and screen-reader users.
 */
export function PointsMap(props: {
  points: MapPoint[];
  label: string;
  height?: number;
  onPointClick?: (submissionId: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<MapLibreMap | null>(null);
  const click = useRef(props.onPointClick);
  useEffect(() => {
    click.current = props.onPointClick;
  });
  const { points } = props;
  const settings = useConsoleSettings();
  // Settings that cannot be read leave the plain panel: the points still show.
  const ready = !settings.isPending;
  const tileUrl = settings.data?.map.tile_url ?? null;
  const dark = usePageScheme() === 'dark';
  useEffect(() => {
    if (!ready) return;
    let live = true;
    void (async () => {
      const [maplibre, { default: workerUrl }] = await Promise.all([
        import('maplibre-gl'),
        import('maplibre-gl/dist/maplibre-gl-worker.mjs?url'),
      ]);
      if (!live || !box.current) return;
      // The worker as a file of the build, on this origin (the CSP allows no blob: workers).
      maplibre.setWorkerUrl(workerUrl);
      const m = new maplibre.Map({
        container: box.current,
        style: style(tileUrl, dark),
        center: [0, 0],
        zoom: 1,
        attributionControl: false,
      });
      map.current = m;
      m.addControl(new maplibre.NavigationControl({ showCompass: false }));
      m.on('load', () => {
        m.addSource('points', {
          type: 'geojson',
          data: featuresOf(points),
          cluster: true,
          clusterRadius: 40,
        });
        m.addLayer({
          id: 'clusters',
          type: 'circle',
          source: 'points',
          filter: ['has', 'point_count'],
          paint: {
            'circle-color': '#1c7ed6',
            'circle-opacity': 0.75,
            'circle-radius': ['step', ['get', 'point_count'], 14, 10, 20, 100, 28],
            'circle-stroke-width': 2,
            'circle-stroke-color': '#ffffff',
          },
        });
        m.addLayer({
          id: 'point',
          type: 'circle',
          source: 'points',
          filter: ['!', ['has', 'point_count']],
          paint: {
            'circle-color': '#e8590c',
            'circle-radius': 7,
            'circle-stroke-width': 2,
            'circle-stroke-color': '#fff',
          },
        });
        m.on('click', 'clusters', async (e) => {
          const feature = e.features?.[0];
          const source = m.getSource<GeoJSONSource>('points');
          if (!feature || !source) return;
          const zoom = await source.getClusterExpansionZoom(feature.properties.cluster_id as number);
          m.easeTo({ center: (feature.geometry as GeoJSON.Point).coordinates as [number, number], zoom });
        });
        m.on('click', 'point', (e) => {
          const id = e.features?.[0]?.properties.submission as number | undefined;
          if (id !== undefined) click.current?.(id);
        });
        for (const layer of ['clusters', 'point']) {
          m.on('mouseenter', layer, () => (m.getCanvas().style.cursor = 'pointer'));
          m.on('mouseleave', layer, () => (m.getCanvas().style.cursor = ''));
        }
        if (points.length) {
          const bounds = new maplibre.LngLatBounds();
          points.forEach((p) => bounds.extend([p.longitude, p.latitude]));
          m.fitBounds(bounds, { padding: 40, maxZoom: 14, duration: 0 });
        }
        // Marks the map as drawn with its points (tests and screenshots wait for it).
        m.once('idle', () => box.current?.setAttribute('data-drawn', 'true'));
      });
    })();
    return () => {
      live = false;
      map.current?.remove();
      map.current = null;
    };
  }, [points, ready, tileUrl, dark]);
  return (
    <div style={{ position: 'relative', borderRadius: 8, overflow: 'hidden' }}>
      <div
        ref={box}
        role="region"
        aria-label={props.label}
        data-testid="points-map"
        style={{ height: props.height ?? 420, width: '100%' }}
      />
      {settings.data ? <Attribution map={settings.data.map} /> : null}
    </div>
  );
}
