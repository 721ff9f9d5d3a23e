/**
 * Visitors by country on a world map: Natural Earth's country shapes (the `world-atlas` package,
 * 1:110m) drawn with d3-geo in an SVG, each country shaded by its share of the busiest one.
 * Clicking a country filters the view by it; the countries table beside it is the text equivalent.
 */
import { geoNaturalEarth1, geoPath } from 'd3-geo';
import countries from 'i18n-iso-countries';
import { useMemo } from 'react';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'world-atlas/countries-110m.json';
import { formatCount } from '../lib/format';
import { countryName } from '../lib/names';

const WIDTH = 640;
const HEIGHT = 330;

interface CountryShape {
  id: string;
  d: string;
}

function shapes(): CountryShape[] {
  const topology = atlas as unknown as Topology<{ countries: GeometryCollection }>;
  const collection = feature(topology, topology.objects.countries);
  const projection = geoNaturalEarth1().fitSize([WIDTH, HEIGHT], collection);
  const path = geoPath(projection);
  return collection.features
    .filter((country) => country.id !== '010') // Antarctica: large and never visited
    .map((country) => ({ id: String(country.id), d: path(country) ?? '' }));
}

export function WorldMap({
  visitors,
  onSelect,
}: {
  /** Visitors by two-letter country code. */
  visitors: Map<string, number>;
  onSelect: (code: string) => void;
}) {
  const drawn = useMemo(shapes, []);
  const byNumeric = new Map<string, { code: string; count: number }>();
  for (const [code, count] of visitors) {
    const numeric = countries.alpha2ToNumeric(code);
    if (numeric) byNumeric.set(numeric, { code, count });
  }
  const max = Math.max(1, ...visitors.values());
  const top = [...visitors.entries()].sort((a, b) => b[1] - a[1])[0];
  const summary = top
    ? `World map of visitors by country; most from ${countryName(top[0])} (${formatCount(top[1])})`
    : 'World map of visitors by country: none in this range';
  return (
    <svg className="world-map" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary}>
      {drawn.map((country) => {
        const seen = byNumeric.get(country.id);
        return (
          // biome-ignore lint/a11y/noStaticElementInteractions: a pointer shortcut; the countries table is the keyboard way
          <path
            key={country.id}
            d={country.d}
            className={seen ? 'country seen' : 'country'}
            style={seen ? { fillOpacity: 0.2 + 0.8 * (seen.count / max) } : undefined}
            onClick={seen ? () => onSelect(seen.code) : undefined}
          >
            {seen && <title>{`${countryName(seen.code)}: ${formatCount(seen.count)} visitors`}</title>}
          </path>
        );
      })}
    </svg>
  );
}
