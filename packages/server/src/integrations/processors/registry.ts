/** The processor modules by name (the `provider` of a connection and of its payments). */
import { PROCESSORS, type Processor, type ProcessorName } from '../processor.js';
import { lemonsqueezy } from './lemonsqueezy.js';
import { paddle } from './paddle.js';
import { polar } from './polar.js';
import { stripe } from './stripe.js';

const BY_NAME: Record<ProcessorName, Processor> = { stripe, paddle, lemonsqueezy, polar };

export function processorNamed(name: string): Processor | undefined {
  return (PROCESSORS as readonly string[]).includes(name) ? BY_NAME[name as ProcessorName] : undefined;
}
