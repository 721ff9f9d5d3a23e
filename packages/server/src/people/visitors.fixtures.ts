/**
 * Helpers shared by the visitor report suites: a client that speaks from its own address (the
 * goals endpoints allow 600 requests a minute per address), and a reader of every page.
 */
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../test/app.js';

let addressCounter = 0;
const nextAddress = () => {
  addressCounter += 1;
  return `10.77.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

export type Headers = Record<string, string>;

export function visitorsClient(t: TestApp, headers: Headers) {
  const address = nextAddress();
  const get = (url: string, query: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
    t.request({ method: 'GET', url, headers, query, remoteAddress: address });
  return {
    goalVisitors: (goal: string, query: Record<string, string>) => get(`/v1/goals/${goal}/visitors`, query),
    profile: (handle: string, query: Record<string, string> = {}) =>
      get(`/v1/visitors/${encodeURIComponent(handle)}`, query),
  };
}

export type VisitorsClient = ReturnType<typeof visitorsClient>;

export interface VisitorsPage {
  visitors: Record<string, unknown>[];
  total_count: number;
  has_more: boolean;
  page: number;
  page_size: number;
  identity_merge_complete: boolean;
  from: string;
  to: string;
}

/** Every page of a goal's visitors, checking on the way that each answers 200. */
export async function readAllPages(
  client: VisitorsClient,
  goal: string,
  query: Record<string, string>,
  pageSize: number,
): Promise<VisitorsPage[]> {
  const pages: VisitorsPage[] = [];
  for (let page = 1; ; page++) {
    const response = await client.goalVisitors(goal, {
      ...query,
      page: String(page),
      page_size: String(pageSize),
    });
    if (response.statusCode !== 200) throw new Error(`page ${page}: ${response.statusCode} ${response.body}`);
    const body = response.json() as VisitorsPage;
    pages.push(body);
    if (!body.has_more || page > 1000) return pages;
  }
}
