/**
 * Device type, operating system and browser from the User-Agent; known bots are told apart.
 * Parsing is the costliest step of a pageview's request, and a site's traffic repeats a few
 * hundred user agents, so results are kept per user agent (the most recent few thousand).
 */
import Bowser from 'bowser';
import { isbot } from 'isbot';

export interface Device {
  device_type: string;
  os: string;
  browser: string;
}

interface Parsed extends Device {
  isBot: boolean;
}

const CACHED_AGENTS = 5_000;
/** Longer user agents are parsed every time, so the cache stays a few megabytes at most. */
const CACHED_AGENT_MAX_LENGTH = 512;

function parse(userAgent: string): Parsed {
  const result = Bowser.parse(userAgent);
  return {
    isBot: isbot(userAgent),
    device_type: result.platform.type ?? '',
    os: result.os.name ?? '',
    browser: result.browser.name ?? '',
  };
}

export type DeviceParser = ReturnType<typeof createDeviceParser>;

/** A parser with its own cache of the most recently seen user agents. */
export function createDeviceParser() {
  const cache = new Map<string, Parsed>();

  function parseCached(userAgent: string): Parsed {
    let parsed = cache.get(userAgent);
    if (parsed) return parsed;
    parsed = parse(userAgent);
    if (userAgent.length > CACHED_AGENT_MAX_LENGTH) return parsed;
    // Maps iterate in insertion order: the first key is the oldest entry.
    if (cache.size >= CACHED_AGENTS) cache.delete(cache.keys().next().value as string);
    cache.set(userAgent, parsed);
    return parsed;
  }

  return {
    isBot(userAgent: string | undefined): boolean {
      return !userAgent || parseCached(userAgent).isBot;
    },

    describe(userAgent: string | undefined, screenWidth?: number): Device {
      if (!userAgent) return { device_type: '', os: '', browser: '' };
      const { device_type, os, browser } = parseCached(userAgent);
      // Bowser leaves some desktops untyped; the screen width settles it when the tracker sent one.
      if (!device_type && screenWidth) {
        const widthType = screenWidth < 768 ? 'mobile' : screenWidth < 1024 ? 'tablet' : 'desktop';
        return { device_type: widthType, os, browser };
      }
      return { device_type, os, browser };
    },
  };
}
