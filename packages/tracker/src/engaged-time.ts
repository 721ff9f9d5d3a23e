/**
 * Engaged time: a stopwatch that runs while the page is visible and the window hasn't lost
 * focus. One stopwatch per page, so module state is enough (the snippet runs once per page).
 */

let totalMs = 0;
/** Date.now() when the current engaged stretch began; 0 while paused. */
let sinceMs = 0;

export function pauseEngagement(): void {
  if (sinceMs) {
    totalMs += Date.now() - sinceMs;
    sinceMs = 0;
  }
}

export function resumeEngagement(): void {
  if (!sinceMs && document.visibilityState === 'visible') sinceMs = Date.now();
}

/** Engaged milliseconds counted since the last restart (the stopwatch keeps running). */
export function readEngagedMs(): number {
  pauseEngagement();
  resumeEngagement();
  return totalMs;
}

/** Zeroes the stopwatch: after a report is sent, and on each pageview. */
export function restartEngagement(): void {
  totalMs = sinceMs = 0;
  resumeEngagement();
}
