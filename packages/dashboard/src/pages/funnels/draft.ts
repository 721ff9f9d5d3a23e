/** A funnel as it is being edited: its steps with keys for React, turned into the API's steps when run or saved. */
import type { Funnel, FunnelStep, PageMatch } from '../../api/funnels';

export interface DraftStep {
  key: string;
  type: 'page' | 'event';
  match: PageMatch;
  /** The path, part or pattern of a page step. */
  value: string;
  /** The event name of an event step. */
  name: string;
  /** An event step may count only events whose property `key` holds `value`; empty key: any event. */
  propertyKey: string;
  propertyValue: string;
}

export interface Draft {
  name: string;
  windowHours: number;
  steps: DraftStep[];
}

export const MIN_STEPS = 2;
export const MAX_STEPS = 8;
export const EVENT_NAME = /^[a-z][a-z0-9_]*$/;

export const WINDOWS = [
  { hours: 1, label: '1 hour' },
  { hours: 24, label: '1 day' },
  { hours: 168, label: '7 days' },
  { hours: 720, label: '30 days' },
  { hours: 2160, label: '90 days' },
];

let counter = 0;
const newKey = () => `step-${++counter}`;

export const pageStep = (value = ''): DraftStep => ({
  key: newKey(),
  type: 'page',
  match: 'is',
  value,
  name: '',
  propertyKey: '',
  propertyValue: '',
});

export const newDraft = (): Draft => ({ name: '', windowHours: 168, steps: [pageStep('/'), pageStep()] });

export function draftOf(funnel: Funnel): Draft {
  return {
    name: funnel.name,
    windowHours: funnel.window_hours,
    steps: funnel.steps.map((step) =>
      step.type === 'page'
        ? { ...pageStep(step.value), match: step.match }
        : {
            ...pageStep(),
            type: 'event',
            name: step.name,
            propertyKey: step.property?.key ?? '',
            propertyValue: step.property?.value ?? '',
          },
    ),
  };
}

/** What is wrong with a step, in words, or null. */
export function stepProblem(step: DraftStep): string | null {
  if (step.type === 'page') return step.value.trim() ? null : 'Enter a page path, such as /pricing.';
  if (!step.name.trim()) return 'Enter an event name, such as signup.';
  return EVENT_NAME.test(step.name.trim()) ? null : 'Event names are lower-case letters, digits and _.';
}

export function apiSteps(steps: DraftStep[]): FunnelStep[] {
  return steps.map((step) =>
    step.type === 'page'
      ? { type: 'page', match: step.match, value: step.value.trim() }
      : {
          type: 'event',
          name: step.name.trim(),
          ...(step.propertyKey.trim()
            ? { property: { key: step.propertyKey.trim(), value: step.propertyValue } }
            : {}),
        },
  );
}
