/**
 * Reads the key without showing it: a hidden prompt on a terminal, else the first line of
 * stdin (so `pass show touchtrail | touchtrail login` works and the key stays out of argv).
 */
import { UsageError } from '../errors.js';

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const BACKSPACES = new Set(['\u007f', '\b']);

function promptHidden(question: string): Promise<string> {
  const { stdin, stderr } = process;
  stderr.write(question);
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === CTRL_D) return finish();
        if (char === CTRL_C) return finish(new UsageError('login cancelled'));
        if (BACKSPACES.has(char)) typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

async function readFirstLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0] ?? '';
}

export async function readKey(question: string): Promise<string> {
  const key = (process.stdin.isTTY ? await promptHidden(question) : await readFirstLine()).trim();
  if (!key)
    throw new UsageError('no API key given', 'Type it at the prompt, pass --key, or pipe it on stdin.');
  return key;
}
