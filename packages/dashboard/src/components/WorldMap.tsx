/**
 * Visitors by country on a world map: Natural Earth's country shapes (the `world-atlas` package,
 * 1:110m) drawn with d3-geo in an SVG, each country shaded by its share of the busiest one.
 * Clicking a country filters the view by it; the countries table beside it is the text equivalent.
 * From the keyboard the visited countries are one stop: Tab reaches the busiest, the arrow keys
 * move through them from most visitors to fewest (Home and End to either end), and Enter or
 * Space filters by the one focused.
 */
import { geoNaturalEarth1, geoPath } from 'd3-geo';
import countries from 'i18n-iso-countries';
import { type KeyboardEvent, useMemo, useRef, useState } from 'react';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'world-atlas/countries-110m.json';
import { formatCount, formatCountOf } from '../lib/format';
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
  // The visited countries that have a shape, most visitors first: the arrow keys' order.
  const ranked = [...byNumeric.values()].sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : 1));
  const [focused, setFocused] = useState<string | null>(null);
  // Shown under the map while a country has the keyboard's focus: small countries are hard to see.
  const [focusWithin, setFocusWithin] = useState(false);
  const current = ranked.find((seen) => seen.code === focused)?.code ?? ranked[0]?.code;
  const svg = useRef<SVGSVGElement>(null);
  const top = [...visitors.entries()].sort((a, b) => b[1] - a[1])[0];
  const summary = top
    ? `World map of visitors by country; most from ${countryName(top[0])} (${formatCount(top[1])})`
    : 'World map of visitors by country: none in this range';

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const at = ranked.findIndex((seen) => seen.code === current);
    const next: Record<string, number> = {
      ArrowRight: at + 1,
      ArrowDown: at + 1,
      ArrowLeft: at - 1,
      ArrowUp: at - 1,
      Home: 0,
      End: ranked.length - 1,
    };
    if (event.key === 'Enter' || event.key === ' ') {
      if (current) onSelect(current);
    } else if (event.key in next) {
      const to = ranked[Math.min(ranked.length - 1, Math.max(0, next[event.key] as number))];
      if (!to) return;
      // Its onFocus makes it the current country.
      svg.current?.querySelector<SVGPathElement>(`[data-code="${to.code}"]`)?.focus();
    } else return;
    event.preventDefault();
  };

  const labelOf = (seen: { code: string; count: number }) =>
    `${countryName(seen.code)}: ${formatCountOf(seen.count, 'visitor')}`;
  const focusedCountry = focusWithin ? ranked.find((seen) => seen.code === current) : undefined;
  return (
    <>
      {/* biome-ignore lint/a11y/useSemanticElements: an SVG drawing cannot be a fieldset; it groups the country buttons */}
      <svg
        ref={svg}
        className="world-map"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="group"
        aria-label={summary}
        onKeyDown={onKeyDown}
        onFocus={() => setFocusWithin(true)}
        onBlur={() => setFocusWithin(false)}
      >
        {drawn.map((country) => {
          const seen = byNumeric.get(country.id);
          if (!seen) return <path key={country.id} d={country.d} className="country" />;
          const label = labelOf(seen);
          return (
            // biome-ignore lint/a11y/useSemanticElements: a country's shape cannot be a <button> element
            <path
              key={country.id}
              d={country.d}
              className="country seen"
              style={{ fillOpacity: 0.2 + 0.8 * (seen.count / max) }}
              role="button"
              aria-label={label}
              data-code={seen.code}
              tabIndex={seen.code === current ? 0 : -1}
              onFocus={() => setFocused(seen.code)}
              onClick={() => onSelect(seen.code)}
            >
              <title>{label}</title>
            </path>
          );
        })}
      </svg>
      {byNumeric.size === 0 ? (
        <p className="muted small map-focus">
          No known locations: every visitor's country is unknown in this range
        </p>
      ) : (
        <p className="muted small map-focus" aria-hidden="true">
          {focusedCountry ? labelOf(focusedCountry) : '\u00a0'}
        </p>
      )}
    </>
  );
}
