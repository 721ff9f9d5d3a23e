/** Device type, operating system and browser from the User-Agent; known bots are told apart. */
import Bowser from 'bowser';
import { isbot } from 'isbot';

export interface Device {
  device_type: string;
  os: string;
  browser: string;
}

export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || isbot(userAgent);
}

export function describeDevice(userAgent: string | undefined, screenWidth?: number): Device {
  if (!userAgent) return { device_type: '', os: '', browser: '' };
  const parsed = Bowser.parse(userAgent);
  let deviceType = parsed.platform.type ?? '';
  // Bowser leaves some desktops untyped; the screen width settles it when the tracker sent one.
  if (!deviceType && screenWidth)
    deviceType = screenWidth < 768 ? 'mobile' : screenWidth < 1024 ? 'tablet' : 'desktop';
  return {
    device_type: deviceType,
    os: parsed.os.name ?? '',
    browser: parsed.browser.name ?? '',
  };
}
