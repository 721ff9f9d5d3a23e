/**
 * What every tool shares: registration that skips a tool the key's scopes do not allow, the MCP
 * hints of reading and writing tools, compact JSON answers that name their units, and API or
 * network failures turned into tool errors (`isError: true`) instead of thrown exceptions.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import {
  type ApiKeyScope,
  TouchtrailApiError,
  type TouchtrailClient,
  TouchtrailNetworkError,
} from '@touchtrail/client';
import type { z } from 'zod';

/** The permissions an API key can hold (interface §5.2). */
export type Scope = ApiKeyScope;

/** Reports change nothing and give the same answer for the same data. */
export const READS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

type ZodShape = Record<string, z.ZodType>;
type ArgsOf<Shape extends ZodShape> = { [K in keyof Shape]: z.output<Shape[K]> };

export interface ToolSpec<Shape extends ZodShape> {
  title: string;
  description: string;
  /** The scope the tool's routes need; the tool is listed only for a key holding it. */
  scope: Scope;
  annotations: ToolAnnotations;
  input: Shape;
  /** Answers the call; a thrown API or network error becomes a tool error. */
  run: (args: ArgsOf<Shape>) => Promise<CallToolResult>;
}

export interface ToolSet {
  client: TouchtrailClient;
  add<Shape extends ZodShape>(name: string, spec: ToolSpec<Shape>): void;
}

export function createToolSet(
  server: McpServer,
  client: TouchtrailClient,
  scopes: readonly Scope[],
): ToolSet {
  return {
    client,
    add(name, spec) {
      if (!scopes.includes(spec.scope)) return;
      // Widened to the constraint so the SDK's callback type resolves; the SDK parses the
      // arguments with this very schema before the callback runs, so they are `ArgsOf<Shape>`.
      const input: ZodShape = spec.input;
      server.registerTool(
        name,
        {
          title: spec.title,
          description: spec.description,
          inputSchema: input,
          annotations: { title: spec.title, ...spec.annotations },
        },
        async (args) => {
          try {
            return await spec.run(args as ArgsOf<typeof spec.input>);
          } catch (error) {
            return toolError(error);
          }
        },
      );
    },
  };
}

/**
 * The answer as one line of JSON, `units` first: what each money, rate or duration field is
 * measured in, taken from the API's own documentation of the fields.
 */
export function answer(data: object, units?: Record<string, string>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(units ? { units, ...data } : data) }] };
}

/** The API's refusal (status, code, message) or an unreachable server, as a tool error. */
export function toolError(error: unknown): CallToolResult {
  const failure =
    error instanceof TouchtrailApiError
      ? { status: error.status, code: error.code ?? null, message: error.message }
      : error instanceof TouchtrailNetworkError
        ? { code: 'network_error', message: error.message }
        : { code: 'tool_failed', message: 'The tool failed unexpectedly; try again' };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: failure }) }] };
}

/** A mistake in the tool's own arguments that the schema cannot express (one of two fields). */
export function argumentError(message: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify({ error: { code: 'invalid_arguments', message } }) }],
  };
}

/** Decimal places of a currency's minor unit (2 for EUR, 0 for JPY), as ICU knows them. */
function minorDigits(currency: string): number | undefined {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits;
  } catch {
    return undefined;
  }
}

/** How to read an integer amount in a currency's minor units. */
export function minorUnits(currency: string): string {
  const digits = minorDigits(currency);
  if (digits === 0) return `integer amount of ${currency}, which has no minor unit`;
  const scale = digits === undefined ? 'minor units' : `1/${10 ** digits} ${currency} each`;
  return `integer minor units of ${currency} (${scale})`;
}

/** How to read an amount already in a currency's major units. */
export const majorUnits = (currency: string) => `major units of ${currency}, decimals as in the currency`;
