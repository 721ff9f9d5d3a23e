/**
 * The four kinds of event the listing shows, read from how each is stored: a pageview is its
 * own row type; a custom event is a browser `event`; a payment is the server `event` the
 * payments endpoint writes, named `payment` or `trial` (payments/payment-write.ts; both names
 * are reserved, so no other path sends them); any other server `event` came from
 * /v1/server/events. Engagement and identify rows are never listed.
 */
export const EVENT_TYPES = ['pageview', 'custom', 'server', 'payment'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What a pageview is called where an event has a name (Plausible's word). */
export const PAGEVIEW_NAME = 'pageview';
