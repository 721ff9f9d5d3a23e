/** Colour only for a person: stdout is a terminal and NO_COLOR is unset (https://no-color.org). */
import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

export const isColourOn = () => Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;

export function paint(style: Style, text: string): string {
  return isColourOn() ? styleText(style, text) : text;
}

export const bold = (text: string) => paint('bold', text);
export const dim = (text: string) => paint('dim', text);
